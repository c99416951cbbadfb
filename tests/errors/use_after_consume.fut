-- ==
-- error: 6:6: error: Using variable "xs", but this was consumed

def main (xs: *[]i32) =
  let ys = xs with [0] = 1
  in xs[0] + ys[0]
