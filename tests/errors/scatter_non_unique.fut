-- ==
-- error: 4:56: error: Consuming variable "xs", which is not consumable

def main (xs: []i32) (is: []i64) (vs: []i32) = scatter xs is vs
