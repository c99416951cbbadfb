-- Passing a non-unique array for a unique parameter after passing it for
-- another parameter: the error leaves the checker in the middle of the call.
-- ==
-- error: 7:35: error: Consuming variable "xs", which is not consumable

def h (a: []i32) (b: *[]i32) : i32 = a[0] + b[0]
def main (xs: []i32) : i32 = h xs xs
