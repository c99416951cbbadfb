-- The value of an in-place update may not alias the array it is written
-- into: a row of a would be read while it is overwritten.
-- ==
-- error: 6:53: error: The value of an in-place update aliases the array "a"

def main [n] (a: *[][n]i32) (i: i64) = a with [i] = a[0]
