-- ==
-- error: 4:37: error: Couldn't match expected type i32 with actual type bool

def main (r: {x: i32}) = r with x = true
