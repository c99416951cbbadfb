-- ==
-- error: 6:6: error: .*consuming 'ys', which aliases 'xs'

def main (xs: []i32) =
  let ys = xs
  in ys with [0] = 1
