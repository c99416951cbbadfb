-- Indices computed from data (gather).
-- ==
-- input { [1.5f64, 2.5f64, 3.5f64] [0i64, -1i64, 4i64, 2i64] }
-- output { [1.5f64, 3.5f64, 2.5f64, 3.5f64] }

def main [n] (xs: [n]f64) (is: []i64) : []f64 = map (\i -> xs[(i + n) % n]) is
