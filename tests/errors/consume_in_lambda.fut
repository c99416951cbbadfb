-- ==
-- error: 4:36: error: Consuming variable "xs", which is bound outside the enclosing lambda or local

def main (xs: *[]i32) = map (\i -> xs with [i] = 0) (iota 3)
