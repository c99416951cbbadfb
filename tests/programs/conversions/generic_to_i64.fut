-- Index arithmetic: converting i32 values to i64 for indexing.
-- ==
-- input { [1.5f32, 2.5f32, 3.5f32] [2, 0, 1, 2] }
-- output { [3.5f32, 1.5f32, 2.5f32, 3.5f32] }

def main (xs: []f32) (is: []i32) : []f32 = map (\i -> xs[i64.i32 i]) is
