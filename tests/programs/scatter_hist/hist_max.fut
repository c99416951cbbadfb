-- hist with max as operator.
-- ==
-- input { [0i64, 2i64, 0i64, 2i64] [1.5f64, -2.0f64, 3.5f64, -1.0f64] }
-- output { [3.5f64, -f64.inf, -1.0f64] }

def main [n] (is: [n]i64) (vs: [n]f64) : []f64 = hist f64.max f64.lowest 3 is vs
