-- A SOAC input that replicates a scalar is never built: the lambda takes
-- the scalar instead. Only the histogram's destination is a replicate.
-- ==
-- structure { Replicate 1 Hist 1 }
-- input { 4i64 [0i32, 1i32, 1i32, 3i32, 7i32, -1i32] 5i32 }
-- output { [5i32, 10i32, 0i32, 5i32] }

def main [n] (k: i64) (is: [n]i32) (w: i32) : [k]i32 =
  hist (+) 0 k (map i64.i32 is) (replicate n w)
