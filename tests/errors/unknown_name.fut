-- ==
-- error: 4:25: error: .*unknown name 'y'

def main (x: i32) = x + y
