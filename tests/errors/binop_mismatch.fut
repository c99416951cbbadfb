-- ==
-- error: 4:34: error: .*cannot unify i32 with f32

def main (x: i32) (y: f32) = x + y
