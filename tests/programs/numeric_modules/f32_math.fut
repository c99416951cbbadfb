-- Mixed f32 math used in a small formula.
-- ==
-- input { [0.0f32, 1.0f32, -2.0f32] }
-- output { [0.3989423f32, 0.24197072f32, 0.053990968f32] }

def gaussian (mu: f32) (sigma: f32) (x: f32) : f32 =
  f32.exp (-((x - mu) ** 2f32) / (2f32 * sigma * sigma)) / (sigma * f32.sqrt (2f32 * f32.pi))

def main (xs: []f32) : []f32 = map (gaussian 0f32 1f32) xs
