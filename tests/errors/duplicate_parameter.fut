-- ==
-- error: 4:20: error: Name "x" is bound twice .duplicate parameter or pattern name.

def main (x: i32) (x: i32) = x
