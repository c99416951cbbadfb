-- Flattening (compiler/passes/flatten.c): a for loop in the map's body
-- that carries an array whose length differs between elements, and a
-- scalar, with a count that differs too. The loop runs on the host as
-- many times as the largest count, carrying the flat array of all
-- elements' arrays and the expanded scalars; each iteration is the
-- lifted body (a map over the flat positions, a segmented reduction),
-- and an element whose count is reached keeps its values.
-- ==
-- structure gpu { Host 0 Loop 1 }
-- input { [3i64, 0i64, 5i64, 2i64] [2i64, 4i64, 0i64, 3i64] }
-- output { [15i64, 0i64, 10i64, 16i64] [21i64, 0i64, 0i64, 24i64] }
-- input { empty([0]i64) empty([0]i64) }
-- output { empty([0]i64) empty([0]i64) }

def main [k] (ns: [k]i64) (cs: [k]i64) : ([k]i64, [k]i64) =
  unzip (map2 (\n c ->
    let (xs, s) = loop (xs, s) = (iota n, 0) for i < c do
                    let ys = map (\x -> x * 2 + i) xs
                    in (ys, s + reduce (+) 0 ys)
    in (reduce (+) 0 xs, s)) ns cs)
