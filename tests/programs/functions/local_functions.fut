-- Functions defined locally with let.
-- ==
-- input { [1, 2, 3] 10 }
-- output { [11, 21, 31] }

def main (xs: []i32) (k: i32) : []i32 =
  let scale x = x * k
  let shift (x: i32) : i32 = x + 1
  in map (\x -> shift (scale x)) xs
