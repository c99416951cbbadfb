-- ==
-- error: 4:20: error: Name "x" also bound at 4:11.

def main (x: i32) (x: i32) = x
