-- ==
-- error: 4:24: error: Couldn't match expected type bool with actual type i32

def main (x: i32) = if x then 1 else 0
