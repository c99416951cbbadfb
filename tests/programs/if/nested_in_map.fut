-- Conditionals inside a map.
-- ==
-- input { [-0.5f32, 0.25f32, 1.5f32, 1.0f32] }
-- output { [0.0f32, 0.25f32, 1.0f32, 1.0f32] }

def main (xs: []f32) : []f32 = map (\x -> if x < 0f32 then 0f32 else if x > 1f32 then 1f32 else x) xs
