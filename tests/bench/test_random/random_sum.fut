-- `futhorc test` with random input: the cases run without an output check
-- (and one with a literal scalar among the types).
-- ==
-- random input { [1000]i32 }
-- random input { [100000]i32 }

entry main (xs: []i32) : i32 = i32.sum xs

-- ==
-- entry: rows
-- random input { [10][20]f64 2i64 }

entry rows [n][m] (xss: [n][m]f64) (k: i64) : [m]f64 = xss[k % n]
