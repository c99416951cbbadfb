-- ==
-- error: 4:21: error: .*cannot access field 'y'

def main (x: i32) = x.y
