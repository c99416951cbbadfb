-- A record update may change an array field's size, not its element type.
-- ==
-- error: 5:56: error: Type \[1\]f32 of the new value of record field "a" does not match its type \[1\]i32

def main (xs: []i32) = let r = {a = xs} in (r with a = [1.0f32]).a
