-- Type abbreviations for primitives, tuples and arrays.
-- ==
-- input { [0.0f64, 3.0f64, 3.0f64] [0.0f64, 4.0f64, 0.0f64] }
-- output { 9.0f64 }
-- input { [1.0f64] [1.0f64] }
-- output { 0.0f64 }

type real = f64
type pt = (real, real)
type poly = []pt

def dist ((x1, y1): pt) ((x2, y2): pt) : real = f64.sqrt ((x2 - x1) ** 2 + (y2 - y1) ** 2)

def main (xs: []f64) (ys: []f64) : real =
  let n = i64.min (length xs) (length ys)
  let ps : poly = zip (take n xs) (take n ys)
  in if n < 2 then 0 else f64.sum (map2 dist (init ps) (tail ps))
