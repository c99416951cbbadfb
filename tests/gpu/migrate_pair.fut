-- A literal of three scalars read from an array: one map of one element
-- with three results, concatenated. The bounds checks of the reads stay
-- on the host, before the kernel.
-- ==
-- structure gpu { SegMap 1 }
-- input { [1i32, 2i32, 3i32] 1i64 }
-- output { [3i32, 6i32, 7i32] }
-- input { [1i32, 2i32, 3i32] 3i64 }
-- error: [Ii]ndex|bounds

entry main [n] (xs: [n]i32) (i: i64) : [3]i32 =
  [xs[i] + 1, xs[i] * 3, xs[0] + xs[n - 1] + 3]
