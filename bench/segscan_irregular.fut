-- A segmented scan over the rows of an irregular array (issue 16):
-- bench/run.py's segscan_irregular workload scans 10^6 rows of 0 to 1,000
-- random elements and one of 10^8, each row on its own; segscan_flat
-- scans as many elements in one scan (bench/scan.fut), the time to
-- compare with.
-- ==
-- input { [2i64, 0i64, 3i64] [1, 2, 3, 4, 5] }
-- output { [1, 3, 3, 7, 12] }
-- input { [0i64, 0i64] empty([0]i32) }
-- output { empty([0]i32) }

def main [n][m] (sizes: [n]i64) (xs: [m]i32) : [m]i32 =
  flatten (map (\r -> scan (+) 0 r) (unflatten_irregular sizes xs))
