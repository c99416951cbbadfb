-- ==
-- error: 6:6: error: Consuming variable "ys", which aliases "xs", which is not consumable

def main (xs: []i32) =
  let ys = xs
  in ys with [0] = 1
