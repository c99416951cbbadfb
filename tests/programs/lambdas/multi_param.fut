-- Multi-parameter lambdas with map3.
-- ==
-- input { [1.0f32, 2.0f32, 3.0f32] [4.0f32, 5.0f32, 6.0f32] [0.5f32, 0.5f32, 0.5f32] }
-- output { [4.5f32, 10.5f32, 18.5f32] }

def main [n] (as: [n]f32) (bs: [n]f32) (cs: [n]f32) : [n]f32 =
  map3 (\a b c -> a * b + c) as bs cs
