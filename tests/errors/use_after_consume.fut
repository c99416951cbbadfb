-- ==
-- error: 6:6: error: .*'xs' is used after being consumed

def main (xs: *[]i32) =
  let ys = xs with [0] = 1
  in xs[0] + ys[0]
