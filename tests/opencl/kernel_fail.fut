-- An index out of bounds inside a kernel (a SegMap): reported with the
-- source location after the kernel has run.
def main (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i]) is
