-- Random input on two entry points: a dot product of two f32 vectors and
-- a sum of i32 values, plus a literal scalar among the random values.
-- ==
-- entry: dot
-- random input { [1000]f32 [1000]f32 }
-- random input { [100000]f32 [100000]f32 }
-- ==
-- entry: scaled_sum
-- random input { [1000]i32 3i32 }

entry dot (xs: []f32) (ys: []f32) : f32 = f32.sum (map2 (*) xs ys)

entry scaled_sum (xs: []i32) (k: i32) : i32 = k * i32.sum xs
