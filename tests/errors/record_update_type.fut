-- ==
-- error: 4:37: error: .*cannot unify i32 with bool

def main (r: {x: i32}) = r with x = true
