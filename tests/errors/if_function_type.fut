-- The branches of an if may not be functions.
-- ==
-- error: may not be of function type

def main (b: bool) (x: i32) = (if b then (\(y: i32) -> y) else (\(y: i32) -> y + 1)) x
