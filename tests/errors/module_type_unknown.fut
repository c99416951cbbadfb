-- ==
-- error: 4:12: error: Unknown module type "ordered"

module m : ordered = {def x = 1i32}

def main (x: i32) = x
