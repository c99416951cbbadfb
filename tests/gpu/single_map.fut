-- A plain map is one SegMap kernel.
-- ==
-- structure gpu { SegMap 1 Kernel 1 }
-- input { [0.0f32, 1.5f32, -2.0f32] }
-- output { [1f32, 3.25f32, 5f32] }

def main (xs: []f32) : []f32 = map (\x -> x * x + 1) xs
