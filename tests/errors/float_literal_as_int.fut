-- ==
-- error: 4:12: error: Couldn't match expected type i32 with actual type f64: i32 is not a floating-point type

def main = 1.5 : i32
