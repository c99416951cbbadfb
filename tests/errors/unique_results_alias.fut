-- Two unique components of a result may not be the same array.
-- ==
-- error: 5:54: error: A unique-typed component of the return value is aliased to some other component

def dup (x: *[]i32) (y: *[]i32) : (*[]i32, *[]i32) = (x, x)

def main (a: *[]i32) = let (b, c) = dup a (copy a) let b[0] = 99 in (b, c)
