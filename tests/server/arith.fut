-- Server-mode test program: scalars, arrays, several results, a 2-D array
-- and an entry point that fails at run time (assertion).

entry add (x: i32) (y: i32) : i32 = x + y

entry scale (k: f64) (xs: []f64) : []f64 = map (* k) xs

entry minmax (xs: []i64) : (i64, i64) = (i64.minimum xs, i64.maximum xs)

entry transpose2 (m: [][]f32) : [][]f32 = transpose m

entry checked_div (x: i32) (y: i32) : i32 =
  assert (y != 0) (x / y)

entry negate_all (bs: []bool) : []bool = map (\b -> !b) bs
