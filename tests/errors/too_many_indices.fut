-- ==
-- error: 4:24: error: .*too many indices

def main (xs: []i32) = xs[0, 1]
