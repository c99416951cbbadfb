-- ==
-- error: 4:12: error: Module defines type\^ f = i32 -> i32, but module type requires a non-lifted type

module m = {type^ f = i32 -> i32} : {type f}

def main (x: i32) = x
