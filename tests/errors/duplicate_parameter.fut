-- ==
-- error: 4:20: error: .*'x' is bound twice

def main (x: i32) (x: i32) = x
