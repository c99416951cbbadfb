-- reduce_by_index with an 8-byte scalar operator, its value map fused in: one SegHist.
-- ==
-- structure gpu { SegHist 1 SegMap 0 Kernel 1 }
-- input { [0i64, 3i64, 1i64, 3i64, 0i64] [1.5f64, -2.0f64, 0.25f64, 4.0f64, 3.0f64] }
-- output { [6f64, 0.5f64, -f64.inf, 8f64] }

def main [n] (is: [n]i64) (vs: [n]f64) : []f64 =
  reduce_by_index (replicate 4 f64.lowest) f64.max f64.lowest is (map (*2) vs)
