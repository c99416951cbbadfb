-- ==
-- error: 6:21: error: Cannot have parametric module here

module f (P: {val x : i32}) = {def y = P.x}

def main (x: i32) = f.y + x
