-- ==
-- error: 7:6: error: .*'v' is used after 'xs'

def main (xs: *[]i32) =
  let v = xs[1:3]
  let xs[0] = 2
  in v[0]
