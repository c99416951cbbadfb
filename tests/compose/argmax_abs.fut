-- argmax of a derived score: the score map and the index array (iota) are
-- zipped into a reduce with a tuple-of-scalars operator (ties go to the
-- lower index). The map fuses into the reduce: one whole-array SegRed,
-- 2 kernels. Empty input gives the neutral element.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { [1.5f32, -4.0f32, 4.0f32, 2.0f32] }
-- output { 4.0f32 1i64 }
-- input { [-7.0f32] }
-- output { 7.0f32 0i64 }
-- input { empty([0]f32) }
-- output { -f32.inf -1i64 }
-- input @ data/argmax_abs.in
-- output @ data/argmax_abs.out

def argmax_by [n] (score: f32 -> f32) (xs: [n]f32) : (f32, i64) =
  let pick (a: f32, i: i64) (b: f32, j: i64) : (f32, i64) =
    if a > b || (a == b && i < j) then (a, i) else (b, j)
  in reduce pick (-f32.inf, -1) (zip (map score xs) (iota n))

def main (xs: []f32) : (f32, i64) = argmax_by f32.abs xs
