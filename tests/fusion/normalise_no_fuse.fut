-- Negative (vertical and horizontal): the map needs the finished sum, so it cannot join the reduction.
-- ==
-- structure { Screma 2 }
-- input { [1.0f64, 3.0f64, 4.0f64] }
-- output { [0.125f64, 0.375f64, 0.5f64] }

def main (xs: []f64) : []f64 =
  let s = reduce (+) 0 xs
  in map (\x -> x / s) xs
