-- The size computation a*b inside both lambdas is hoisted and shared (and the
-- two maps are then fused horizontally into one).
-- ==
-- structure { Screma 1 BinOp 3 }
-- input { [1, 2] 3 4 }
-- output { [13, 14] [12, 24] }

def main (xs: []i32) (a: i32) (b: i32) : ([]i32, []i32) =
  (map (\x -> x + a * b) xs, map (\x -> x * (a * b)) xs)
