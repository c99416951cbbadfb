-- The anonymous size of xs is one size, which cannot be both 1 and 2.
-- ==
-- error: 5:43: error: Sizes "2" and "1" do not match

def main (xs: []i32) : ([1]i32, [2]i32) = (xs, xs)
