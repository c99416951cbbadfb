-- Negative (vertical): the consumer reads the producer output at another index, not row by row.
-- ==
-- structure { Screma 2 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [6i32, 10i32, 14i32, 18i32, 12i32] }

def main [n] (xs: [n]i32) : []i32 =
  let ys = map (\x -> x * 2) xs
  in map (\i -> ys[(i + 1) % n] + ys[i]) (iota n)
