-- Vertical through unzip and zip: a map returning pairs feeds map2.
-- ==
-- structure { Screma 1 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [4i32, 7i32, 10i32, 13i32, 16i32] }
-- input { [-3i32, 0i32, 7i32, 10i32, -8i32, 2i32] }
-- output { [-8i32, 1i32, 22i32, 31i32, -23i32, 7i32] }

def main (xs: []i32) : []i32 =
  let (a, b) = unzip (map (\x -> (x + 1, x * 2)) xs)
  in map2 (+) a b
