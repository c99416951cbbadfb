-- ==
-- error: 4:34: error: Type .x: i32, y: i32. has no field "z"

def main (r: {x: i32, y: i32}) = r.z
