-- Running maximum.
-- ==
-- input { [1.0f64, 3.0f64, 2.0f64, 5.0f64, 4.0f64] }
-- output { [1.0f64, 3.0f64, 3.0f64, 5.0f64, 5.0f64] }

def main (xs: []f64) : []f64 = scan f64.max f64.lowest xs
