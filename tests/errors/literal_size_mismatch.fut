-- ==
-- error: 4:12: error: Sizes "3" and "2" do not match .expected type .3.i32, actual type .2.i32.

def main = [1, 2] : [3]i32
