-- 'square []' is [d][d]i32 for one unknown d, so a 2x3 array is not one.
-- ==
-- error: 7:42: error: Sizes "a" and "b" do not match

type square [n] = [n][n]i32

def make (a: i64) (b: i64) : square [] = tabulate_2d a b (\i j -> i32.i64 (i + j))

def main (a: i64) (b: i64) = make a b
