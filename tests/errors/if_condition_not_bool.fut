-- ==
-- error: 4:24: error: .*cannot unify bool with i32

def main (x: i32) = if x then 1 else 0
