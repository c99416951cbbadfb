-- ==
-- error: 5:1: error: .*unexpected end of file, expect

def main (x: i32) =
