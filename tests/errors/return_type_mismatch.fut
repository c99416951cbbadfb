-- ==
-- error: 4:27: error: .*cannot unify f32 with i32

def main (x: i32) : f32 = x
