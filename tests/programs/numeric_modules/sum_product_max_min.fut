-- sum, product, maximum and minimum from the numeric modules.
-- ==
-- input { [2, -3, 4] [1.5f64, -0.5f64] }
-- output { 3 -24 4 -3 1.0f64 1.5f64 -0.5f64 }
-- input { empty([0]i32) empty([0]f64) }
-- output { 0 1 -2147483648 2147483647 0.0f64 -f64.inf f64.inf }

def main (xs: []i32) (ys: []f64) : (i32, i32, i32, i32, f64, f64, f64) =
  (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs, f64.sum ys, f64.maximum ys, f64.minimum ys)
