-- Function types in parameters and type abbreviations.
-- ==
-- input { -1.5f32 }
-- output { -3.0f32 1.5f32 }

def apply_both (f: f32 -> f32) (g: f32 -> f32) (x: f32) : (f32, f32) = (f x, g x)

def main (x: f32) : (f32, f32) = apply_both (* 2f32) f32.abs x
