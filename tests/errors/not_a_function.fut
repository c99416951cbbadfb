-- ==
-- error: 4:21: error: .*not a function

def main (x: i32) = x 2
