-- ==
-- error: 4:42: error: .*cannot unify i32 with f32

def main (b: bool) = if b then 1i32 else 2.0f32
