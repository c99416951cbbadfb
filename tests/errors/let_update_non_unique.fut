-- ==
-- error: 5:3: error: .*consuming 'xs', which is not unique

def main (xs: []i32) =
  let xs[0] = 1
  in xs
