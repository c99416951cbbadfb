-- ==
-- error: 4:27: error: Couldn't match expected type f32 with actual type i32

def main (x: i32) : f32 = x
