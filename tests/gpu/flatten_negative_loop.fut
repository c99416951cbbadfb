-- Negative (flattening, compiler/passes/flatten.c): a loop that carries
-- an array whose length differs between elements is not flattened (the
-- loop would need lifting itself); the map stays on the host, each
-- element's loop run there over mapped memory.
-- ==
-- structure gpu { Host 1 Kernel 0 }
-- input { [3i64, 0i64, 2i64] }
-- output { [9i64, 0i64, 5i64] }

def main (ns: []i64) : []i64 =
  map (\n -> let xs = loop xs = iota n for _i < 2 do map (+1) xs
             in reduce (+) 0 xs) ns
