-- Flattening (compiler/passes/flatten.c, split_ifs): an if of the map's body that chooses between arrays of a length
-- the body binds runs both branches for every element and selects element by element, so the map is flattened
-- instead of running on the host. A branch's assertion is guarded by its condition: `assert (n > 2)` in the then
-- branch does not fail for the elements that take the else branch (n = 1, 0), and fails for one that takes it.
-- ==
-- structure gpu { Host 0 }
-- entry: choose
-- input { [3i64, 8i64, 0i64, 6i64, 1i64] }
-- output { [21i64, 28i64, 0i64, 15i64, 7i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }
-- entry: mapped
-- input { [3i64, 4i64, 0i64, 1i64] }
-- output { [6i64, 16i64, 0i64, 0i64] }
-- entry: with_scalar
-- input { [2i64, 5i64, 0i64] }
-- output { [14i64, 11i64, 2i64] }
-- entry: asserted
-- input { [3i64, 1i64, 0i64, 5i64] }
-- output { [3i64, 1i64, 0i64, 10i64] }
-- input { [3i64, 4i64] }
-- error: Assertion is false: n != 4

entry choose (ns: []i64) : []i64 =
  map (\n -> let xs = if n > 5 then iota n else replicate n 7 in reduce (+) 0 xs) ns

entry mapped (ns: []i64) : []i64 =
  map (\n -> let xs = map (* 2) (iota n)
             let ys = if n % 2 == 0 then map (+ 1) xs else xs
             in i64.sum ys) ns

entry with_scalar (ns: []i64) : []i64 =
  map (\n -> let (s, xs) = if n > 3 then (1, iota n) else (2, replicate n 3)
             in s + i64.sum (map (* s) xs)) ns

entry asserted (ns: []i64) : []i64 =
  map (\n -> let xs = if n > 2 then assert (n != 4) (iota n) else replicate n 1
             in i64.sum xs) ns
