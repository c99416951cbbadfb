-- Vertical: map into reduce (the dot product) is one Screma with a reduction.
-- ==
-- structure { Screma 1 Reduce 1 }
-- input { [1.5f32, 2.0f32, -1.0f32, 4.0f32] [2.0f32, 0.5f32, 3.0f32, -1.0f32] }
-- output { -3.0f32 }
-- input { empty([0]f32) empty([0]f32) }
-- output { 0.0f32 }

def main (xs: []f32) (ys: []f32) : f32 = reduce (+) 0 (map2 (*) xs ys)
