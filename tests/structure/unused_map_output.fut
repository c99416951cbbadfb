-- Of a map returning pairs only the first component is used: the second
-- output and its computation are removed.
-- ==
-- structure { Screma 1 BinOp 1 }
-- input { [1, 2, 3] }
-- output { [2, 3, 4] }

def main (xs: []i32) : []i32 =
  let (ys, _) = unzip (map (\x -> (x + 1, x * x)) xs)
  in ys
