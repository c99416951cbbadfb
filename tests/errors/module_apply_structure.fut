-- ==
-- error: 6:12: error: Cannot apply non-parametric module

module m = {def x = 1i32}

module n = m {def y = 2i32}

def main (x: i32) = x
