-- The elements a flat update addresses must all be in the array: the
-- offset, and the extremes of every dimension (a negative stride reaches
-- below the offset). An empty value writes nothing, wherever it points;
-- huge strides do not wrap around.
-- ==
-- input { 10i64 0i64 3i64 1i64 2i64 2i64 }
-- output { [1i32, 1i32, 0i32, 1i32, 1i32, 0i32, 0i32, 0i32, 0i32, 0i32] }
-- input { 10i64 9i64 -3i64 -1i64 2i64 2i64 }
-- output { [0i32, 0i32, 0i32, 0i32, 0i32, 1i32, 1i32, 0i32, 1i32, 1i32] }
-- input { 10i64 5i64 -3i64 -1i64 3i64 2i64 }
-- error: Flat slice out of bounds
-- input { 10i64 50i64 3i64 1i64 0i64 2i64 }
-- output { [0i32, 0i32, 0i32, 0i32, 0i32, 0i32, 0i32, 0i32, 0i32, 0i32] }
-- input { 10i64 0i64 4611686018427387904i64 1i64 3i64 1i64 }
-- error: Flat slice out of bounds
-- input { 10i64 0i64 -9223372036854775808i64 1i64 2i64 1i64 }
-- error: Flat slice out of bounds
-- input { 10i64 10i64 1i64 1i64 1i64 1i64 }
-- error: Flat slice out of bounds

entry main (n: i64) (off: i64) (s1: i64) (s2: i64) (k: i64) (l: i64) : [n]i32 =
  intrinsics.flat_update_2d (replicate n 0i32) off s1 s2 (replicate k (replicate l 1i32))
