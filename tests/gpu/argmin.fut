-- A reduction with a tuple-of-scalars operator (zip with indices fused in) is one SegRed.
-- ==
-- structure gpu { SegRed 1 SegSeq 0 Kernel 2 }
-- input { [3.0f32, 1.5f32, 7.0f32, 1.5f32, 2.0f32] }
-- output { 1.5f32 1i64 }

def main (xs: []f32) : (f32, i64) =
  reduce (\(a, i) (b, j) -> if a < b || (a == b && i < j) then (a, i) else (b, j))
         (f32.inf, -1) (zip xs (indices xs))
