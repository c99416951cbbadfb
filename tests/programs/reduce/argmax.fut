-- Reduction over pairs: index of the maximum (first on ties).
-- ==
-- input { [3.0f64, 9.0f64, -1.0f64, 9.0f64, 2.0f64] }
-- output { 1i64 }
-- input { [-5.0f64] }
-- output { 0i64 }

def argmax [n] (xs: [n]f64) : i64 =
  let op (x1: f64, i1: i64) (x2: f64, i2: i64) : (f64, i64) =
    if x1 > x2 then (x1, i1)
    else if x2 > x1 then (x2, i2)
    else (x1, i64.min i1 i2)
  in (reduce op (f64.lowest, -1) (zip xs (iota n))).1

def main (xs: []f64) : i64 = argmax xs
