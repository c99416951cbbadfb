-- A segmented reduction over the rows of an irregular array (issue 16):
-- bench/run.py's segred_irregular workload sums 10^6 rows of 0 to 1,000
-- random elements and one of 10^8, each row's sum of its own elements;
-- segred_flat sums as many elements in one reduction (bench/sum.fut),
-- the time to compare with.
-- ==
-- input { [2i64, 0i64, 3i64] [1f32, 2f32, 3f32, 4f32, 5f32] }
-- output { [3f32, 0f32, 12f32] }
-- input { empty([0]i64) empty([0]f32) }
-- output { empty([0]f32) }

def main [n][m] (sizes: [n]i64) (xs: [m]f32) : [n]f32 =
  map (\r -> reduce (+) 0 r) (unflatten_irregular sizes xs)
