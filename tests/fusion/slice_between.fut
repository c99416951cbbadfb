-- Negative (vertical): the consumer reads a slice of the producer output, not its rows.
-- ==
-- structure { Screma 2 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [6i32, 8i32, 10i32, 12i32] }

def main (xs: []i32) : []i32 =
  let ys = map (\x -> x + 1) xs
  in map (\y -> y * 2) ys[1:]
