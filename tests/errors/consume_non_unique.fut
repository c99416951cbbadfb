-- ==
-- error: 4:24: error: Consuming variable "xs", which is not consumable

def main (xs: []i32) = xs with [0] = 1
