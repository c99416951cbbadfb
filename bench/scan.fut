-- Benchmark: inclusive prefix sum of i32 (peers: scan_i32_2^27).
-- Sums wrap around on overflow, as i32 arithmetic does.
-- ==
-- input { [3, 1, 4, 1, 5, 9, 2, 6] }
-- output { [3, 4, 8, 9, 14, 23, 25, 31] }
-- input { [2147483647, 1] }
-- output { [2147483647, -2147483648] }

def main [n] (xs: [n]i32) : [n]i32 =
  scan (+) 0 xs
