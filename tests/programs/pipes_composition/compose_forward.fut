-- Forward function composition >->.
-- ==
-- input { [0, 1, 5] }
-- output { [1, 4, 16] }

def main (xs: []i32) : []i32 =
  let f = (+ 1) >-> (* 3) >-> (\x -> x - 2)
  in map f xs
