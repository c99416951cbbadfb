-- exscan and partition2.
-- ==
-- input { [1, 2, 3, 4, 5, 6] }
-- output { [0, 1, 3, 6, 10, 15] [2, 4, 6] [3] [1, 5] }

def main (xs: []i32) =
  let (a, b, c) = partition2 (\x -> x % 2 == 0) (\x -> x % 3 == 0) xs
  in (exscan (+) 0 xs, a, b, c)
