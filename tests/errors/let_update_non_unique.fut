-- ==
-- error: 5:3: error: Consuming variable "xs", which is not consumable

def main (xs: []i32) =
  let xs[0] = 1
  in xs
