-- ==
-- error: 4:52: error: Cannot apply "zip" to "ys" .invalid type.. Sizes "n" and "m" do not match .expected type

def main [n][m] (xs: [n]i32) (ys: [m]i32) = zip xs ys
