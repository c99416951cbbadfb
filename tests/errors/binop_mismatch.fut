-- ==
-- error: 4:34: error: Couldn't match expected type i32 with actual type f32

def main (x: i32) (y: f32) = x + y
