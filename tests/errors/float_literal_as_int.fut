-- ==
-- error: 4:12: error: .*cannot unify i32 with f64

def main = 1.5 : i32
