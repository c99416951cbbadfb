-- Slices inside a map (windows).
-- ==
-- input { [1, 2, 3, 4, 5] }
-- output { [6, 9, 12] }

def main [n] (xs: [n]i32) : []i32 = map (\i -> i32.sum xs[i:i + 3]) (iota (n - 2))
