-- n + 1 and n + 2 are different sizes whatever n is.
-- ==
-- error: 6:3: error: Sizes "n . 1" and "n . 2" do not match

def f [n] (xs: [n]i32) : [n + 1][n + 1]i32 =
  tabulate_2d (n + 1) (n + 2) (\i j -> xs[0] + i32.i64 (i + j))

def main (xs: []i32) = f xs
