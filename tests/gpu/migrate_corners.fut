-- Array literals of scalars computed from array elements are built on
-- the device: each becomes a map of one element (a SegMap of one
-- work-item) instead of reading the elements back to the host, waiting
-- for the device each time. Here the two ends of a loop's new array (as
-- in a stencil whose edges are computed apart), built in place in it.
-- ==
-- structure gpu { SegMap 3 Host 0 }
-- structure mem { Copy 0 }
-- input { 2 [1f32, 2f32, 3f32, 4f32] }
-- output { [7f32, 8f32, 12f32, 18f32] }

entry main [n] (steps: i32) (xs: [n]f32) : [n]f32 =
  loop xs for _i < steps do
    [xs[0] + xs[1]] ++ map (\i -> xs[i] * 2) (1..<n-1) ++ [xs[n - 1] * xs[n - 2] / 2] :> [n]f32
