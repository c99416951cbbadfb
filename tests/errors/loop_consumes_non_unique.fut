-- ==
-- error: 4:35: error: Consuming variable "xs", which is not consumable

def main (xs: []i32) = loop acc = xs for i < 3 do acc with [i] = 0
