-- ==
-- error: 4:36: error: .*bound outside the enclosing lambda

def main (xs: *[]i32) = map (\i -> xs with [i] = 0) (iota 3)
