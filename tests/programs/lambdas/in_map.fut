-- An anonymous function passed to map.
-- ==
-- input { [0.0f64, 1.5f64, -2.0f64] }
-- output { [1.0f64, 3.25f64, 5.0f64] }

def main (xs: []f64) : []f64 = map (\x -> x * x + 1.0) xs
