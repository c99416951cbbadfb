-- ==
-- error: 4:24: error: .*consuming 'xs', which is not unique

def main (xs: []i32) = xs with [0] = 1
