-- ==
-- error: 4:42: error: Couldn't match expected type i32 with actual type f32

def main (b: bool) = if b then 1i32 else 2.0f32
