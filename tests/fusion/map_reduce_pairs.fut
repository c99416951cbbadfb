-- Vertical: a map producing pairs feeds a reduction with a pair operator (argmax).
-- ==
-- structure { Screma 1 Reduce 1 }
-- input { [3i32, 9i32, 2i32, 9i32, 5i32] }
-- output { 81i32 1i64 }

def main [n] (xs: [n]i32) : (i32, i64) =
  let vs = map (\x -> x * x) xs
  in reduce (\(a, i) (b, j) -> if a > b || (a == b && i < j) then (a, i) else (b, j))
            (i32.lowest, -1) (zip vs (iota n))
