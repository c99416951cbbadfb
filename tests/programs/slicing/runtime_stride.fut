-- Slices whose stride is known only at run time, as Futhark has them:
-- omitted bounds follow the stride's sign, the slice has ceil((b-a)/s)
-- elements, and its end may lie past the array when its last element
-- does not (xs[7:9:2] of 8 elements is [xs[7]]). A stride of 0, bounds
-- the wrong way round and elements outside the array fail; so do huge
-- strides and bounds (no wrap-around into range).
-- ==
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 1i64 8i64 3i64 }
-- output { [1, 4, 7] [0, 3, 6] [1, 4, 7] }
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 7i64 9i64 2i64 }
-- output { [7] [0, 2, 4, 6] [7] }
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 6i64 1i64 -2i64 }
-- output { [6, 4, 2] [7, 5, 3, 1] [6, 4, 2, 0] }
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 3i64 3i64 5i64 }
-- output { empty([0]i32) [0, 5] [3] }
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 1i64 8i64 0i64 }
-- error: [Ii]ndex.*out of bounds
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 5i64 2i64 1i64 }
-- error: [Ii]ndex.*out of bounds
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 0i64 9223372036854775807i64 4611686018427387904i64 }
-- error: [Ii]ndex.*out of bounds
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 8i64 -1i64 -1i64 }
-- error: [Ii]ndex.*out of bounds

entry main (xs: []i32) (a: i64) (b: i64) (s: i64) : ([]i32, []i32, []i32) =
  (xs[a:b:s], xs[::s], xs[a::s])
