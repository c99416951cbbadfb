-- Negative (legality): the producer reads xs, an in-place update consumes xs before the
-- consumer, which uses the update's result; fusing would read the updated array.
-- ==
-- structure { Screma 2 }
-- input { [1i32, 2i32, 3i32, 4i32] }
-- output { [17i32, 22i32, 33i32, 44i32] }

def main [n] (xs: *[n]i32) : []i32 =
  let ys = map (\x -> x * 10) xs
  let xs2 = xs with [0] = 7
  in map2 (+) ys xs2
