-- iota and replicate.
-- ==
-- input { 3i64 0.5f32 }
-- output { [0i64, 1i64, 2i64] [0.5f32, 0.5f32, 0.5f32] [[0i64, 1i64, 2i64], [0i64, 1i64, 2i64]] }
-- input { 0i64 0.5f32 }
-- output { empty([0]i64) empty([0]f32) empty([2][0]i64) }

def main (n: i64) (x: f32) : ([n]i64, [n]f32, [2][n]i64) =
  (iota n, replicate n x, replicate 2 (iota n))
