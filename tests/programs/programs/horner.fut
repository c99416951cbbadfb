-- Polynomial evaluation by Horner's rule with foldl, at many points.
-- ==
-- input { [2.0f64, -3.0f64, 0.0f64, 5.0f64] [0.0f64, 1.0f64, -1.0f64, 2.0f64, 0.5f64] }
-- output { [5.0f64, 4.0f64, 0.0f64, 9.0f64, 4.5f64] }

def horner [n] (coeffs: [n]f64) (x: f64) : f64 = foldl (\acc c -> acc * x + c) 0.0 coeffs

def main (coeffs: []f64) (xs: []f64) : []f64 = map (horner coeffs) xs
