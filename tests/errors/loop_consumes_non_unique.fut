-- ==
-- error: 4:35: error: .*consuming 'xs', which is not unique

def main (xs: []i32) = loop acc = xs for i < 3 do acc with [i] = 0
