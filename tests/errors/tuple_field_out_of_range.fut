-- ==
-- error: 4:28: error: Type .i32, i32. has no field "2"

def main (p: (i32, i32)) = p.2
