-- ==
-- error: 4:54: error: Cannot apply "map2" to "b" .invalid type.. Sizes "n" and "m" do not match .expected type

def main [n][m] (a: [n]f32) (b: [m]f32) = map2 (+) a b
