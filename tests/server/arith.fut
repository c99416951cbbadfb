-- Server-mode test program: scalars, arrays, several results, a 2-D array,
-- an entry point that fails at run time (assertion), and irregular arrays
-- (the prelude's `irregular` record, an opaque value).

entry add (x: i32) (y: i32) : i32 = x + y

entry scale (k: f64) (xs: []f64) : []f64 = map (* k) xs

entry minmax (xs: []i64) : (i64, i64) = (i64.minimum xs, i64.maximum xs)

entry transpose2 (m: [][]f32) : [][]f32 = transpose m

entry checked_div (x: i32) (y: i32) : i32 =
  assert (y != 0) (x / y)

entry negate_all (bs: []bool) : []bool = map (\b -> !b) bs

entry ranges (ns: []i64) : irregular [] i64 = to_irregular (map (\n -> iota n) ns)

entry row_sums [n] (x: irregular [n] i64) : [n]i64 = map i64.sum (from_irregular x)
