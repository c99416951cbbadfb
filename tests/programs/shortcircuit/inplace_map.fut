-- In-place maps: a map over a unique array that is not used afterwards is
-- built in that array's memory (each element is read before it is
-- written): no block at all, also for map2 and for a nest over rows.
-- ==
-- entry: one
-- structure mem { Alloc 0 }
-- input { [1f32, 2f32, 3f32] }
-- output { [3f32, 4f32, 5f32] }
-- input { empty([0]f32) }
-- output { empty([0]f32) }

-- ==
-- entry: two
-- structure mem { Alloc 0 }
-- input { [1i32, 2i32] [10i32, 20i32] }
-- output { [11i32, 22i32] }

-- ==
-- entry: rows
-- structure mem { Alloc 0 }
-- input { [[1i32, 2i32], [3i32, 4i32]] }
-- output { [[2i32, 4i32], [6i32, 8i32]] }

entry one [n] (xs: *[n]f32) : [n]f32 = map (+2) xs

entry two [n] (xs: *[n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys

entry rows [n][m] (xss: *[n][m]i32) : [n][m]i32 = map (map (*2)) xss
