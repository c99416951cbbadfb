-- Mean, variance and standard deviation of f64 data.
-- ==
-- input { [2.0f64, 4.0f64, 4.0f64, 4.0f64, 5.0f64, 5.0f64, 7.0f64, 9.0f64] }
-- output { 5.0f64 4.0f64 2.0f64 }

def mean [n] (xs: [n]f64) : f64 = f64.sum xs / f64.i64 n

def variance [n] (xs: [n]f64) : f64 =
  let m = mean xs
  in f64.sum (map (\x -> (x - m) ** 2) xs) / f64.i64 n

def main (xs: []f64) : (f64, f64, f64) = (mean xs, variance xs, f64.sqrt (variance xs))
