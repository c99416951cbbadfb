-- ==
-- error: 4:38: error: Sizes "n" and "3" do not match .expected type .n.i32, actual type .3.i32.

def main [n] (xs: [n]i32) : [n]i32 = [1, 2, 3]
