-- filter on floats, then reduce.
-- ==
-- input { [0.25f64, 0.75f64, 1.5f64, 0.5f64] }
-- output { 2i64 2.25f64 }

def main (xs: []f64) : (i64, f64) =
  let ys = filter (\x -> x > 0.5) xs
  in (length ys, f64.sum ys)
