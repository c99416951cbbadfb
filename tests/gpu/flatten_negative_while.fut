-- Negative (flattening, compiler/passes/flatten.c): a while loop that
-- carries an array whose length differs between elements is not lifted
-- (a for loop is: flatten_loop); the map stays on the host, each
-- element's loop run there over mapped memory.
-- ==
-- structure gpu { Host 1 Kernel 0 }
-- input { [3i64, 0i64, 2i64] }
-- output { [9i64, 0i64, 5i64] }

def main (ns: []i64) : []i64 =
  map (\n -> let (xs, _) = loop (xs, j) = (iota n, 0) while j < 2 do (map (+1) xs, j + 1)
             in reduce (+) 0 xs) ns
