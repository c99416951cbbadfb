-- ==
-- error: 6:12: error: Module type specifies val scale : f32 -> f32, but module provides val scale : .x: i32. -> i32

module type scaler = {val scale : f32 -> f32}

module s = { def scale (x: i32) = x * 2 } : scaler

def main (x: f32) = s.scale x
