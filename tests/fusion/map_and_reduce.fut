-- Horizontal: a map and a reduction over the same array are one pass.
-- ==
-- structure { Screma 1 Reduce 1 }
-- input { [1.0f64, 2.0f64, 4.0f64] }
-- output { [0.5f64, 1.0f64, 2.0f64] 7.0f64 }

def main (xs: []f64) : ([]f64, f64) = (map (\x -> x * 0.5) xs, reduce (+) 0 xs)
