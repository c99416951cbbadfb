-- ==
-- error: 5:38: error: Consuming variable "xs", which is bound outside the loop: it is not consumable in the loop body .a later

def main (xs: *[]i32) : i32 =
  loop acc = 0 for i < 3 do let ys = xs with [i] = 1 in acc + ys[0]
