-- ==
-- error: 4:33: error: .*declared unique, but it aliases 'xs'

def main (xs: []i32) : *[]i32 = xs
