-- ==
-- error: 4:25: error: .*cannot unify i64 with i32

def main (n: i32) (xs: [n]i32) : i32 = xs[0]
