-- ==
-- error: 7:6: error: Using variable "v", but "xs", which it aliases, was consumed

def main (xs: *[]i32) =
  let v = xs[1:3]
  let xs[0] = 2
  in v[0]
