-- Strided slices a[i:j:s] and a[::2]; the end of a strided slice may lie
-- past the array when its last element does not (xs[1:10:3] is
-- [xs[1], xs[4], xs[7]]), as in Futhark.
-- ==
-- input { [0, 1, 2, 3, 4, 5, 6, 7] }
-- output { [1, 3, 5] [0, 2, 4, 6] [1, 4, 7] [1, 4, 7] }
-- input { [0, 1, 2, 3, 4, 5, 6] }
-- error: [Ii]ndex \[1:10:3\] out of bounds

def main (xs: []i32) : ([]i32, []i32, []i32, []i32) = (xs[1:7:2], xs[::2], xs[1::3], xs[1:10:3])
