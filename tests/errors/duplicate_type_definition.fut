-- ==
-- error: 5:1: error: Duplicate definition of type "t"

type t = i32
type t = f32

def main (x: i32) : i32 = x
