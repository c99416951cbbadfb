-- An out-of-bounds index inside a map.
-- ==
-- input { [1.0f32, 2.0f32] [1i64, 0i64, 1i64] }
-- output { [2.0f32, 1.0f32, 2.0f32] }
-- input { [1.0f32, 2.0f32] [0i64, 5i64] }
-- error: [Oo]ut of bounds|[Ii]ndex

def main (xs: []f32) (is: []i64) : []f32 = map (\i -> xs[i]) is
