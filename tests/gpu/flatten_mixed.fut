-- Flattening (compiler/passes/flatten.c): arrays of two lengths per
-- element (n and n + 1, two descriptors), a scan of pairs whose operator
-- does not commute (composition of affine maps), an inner map that reads
-- the element's row (an array of one row per element) and indexes two
-- other inner arrays (their segments of the flat arrays), and results
-- that are a parameter, reductions and an element read by the code
-- after the inner operations.
-- ==
-- structure gpu { Host 0 }
-- input { [3i64, 0i64, 5i64, 1i64, 7i64] [[1i64, 2i64], [3i64, 4i64], [5i64, 6i64], [7i64, 8i64], [-1i64, 2i64]] }
-- output { [3i64, 0i64, 5i64, 1i64, 7i64] [26i64, 0i64, 296i64, 7i64, 121i64]
--          [13i64, -1i64, 123i64, 7i64, 4i64] [6i64, 0i64, 15i64, 1i64, 28i64] }
-- input { empty([0]i64) empty([0][2]i64) }
-- output { empty([0]i64) empty([0]i64) empty([0]i64) empty([0]i64) }

def main [k][m] (ns: [k]i64) (rows: [k][m]i64) : ([k]i64, [k]i64, [k]i64, [k]i64) =
  unzip4 (map2 (\n row ->
    let xs = scan (\(a, b) (c, d) -> (a * c, b * c + d)) (1, 0)
                  (map (\i -> (i % 3 + 1, row[i % m])) (iota n))
    let (_, bs) = unzip xs
    let ys = iota (n + 1)
    let s = reduce (+) 0 (map (\i -> ys[i] * ys[i + 1] + bs[i]) (iota n))
    in (n, s, if n > 0 then bs[n - 1] else -1, reduce (+) 0 ys)) ns rows)
