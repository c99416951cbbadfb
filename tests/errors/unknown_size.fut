-- ==
-- error: 4:16: error: .*unknown size 'k'

def main (xs: [k]i32) = xs
