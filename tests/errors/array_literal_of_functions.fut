-- An array literal cannot hold functions, whose type Futhark calls
-- functional.
-- ==
-- error: 7:13: error: Type \(x: i32\) -> i32 found to be functional

def inc (x: i32) = x + 1
def table = [inc, \(x: i32) -> x * 2]

entry main (x: i32) = x
