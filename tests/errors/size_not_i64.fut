-- ==
-- error: 4:25: error: Couldn't match expected type i64 with actual type i32

def main (n: i32) (xs: [n]i32) : i32 = xs[0]
