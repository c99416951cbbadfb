-- ==
-- error: 4:24: error: Too many indices .2. for an array of type ..i32

def main (xs: []i32) = xs[0, 1]
