-- ==
-- error: 7:6: error: Using variable "g", but "xs", which it aliases, was consumed

def main (xs: *[]i32) : i32 =
  let g = \(i: i64) -> xs[i]
  let ys = xs with [0] = 1
  in g 0 + ys[1]
