-- ==
-- error: 4:56: error: .*consuming 'xs', which is not unique

def main (xs: []i32) (is: []i64) (vs: []i32) = scatter xs is vs
