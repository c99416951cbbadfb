-- Flattening (compiler/passes/flatten.c): a while loop that carries an
-- array whose length differs between elements, and whose number of
-- iterations differs too (n % 4). It runs on the host while some
-- element's condition holds (a reduction of the conditions after each
-- iteration); each iteration is the lifted body, and an element whose
-- condition no longer holds keeps its values.
-- ==
-- structure gpu { Host 0 Loop 1 }
-- input { [3i64, 0i64, 6i64, 5i64, 7i64] }
-- output { [12i64, 0i64, 21i64, 10i64, 42i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

def main (ns: []i64) : []i64 =
  map (\n -> let (xs, _) = loop (xs, j) = (iota n, 0) while j < n % 4 do (map (+ j) xs, j + 1)
             in reduce (+) 0 xs) ns
