-- Negative: invert a permutation with scatter (iota as values; a SegMap),
-- then gather through the inverse (a map reading inv[i]: another SegMap).
-- The scatter writes at arbitrary positions, so the gather cannot start
-- until it has finished: 2 SegMaps, 2 kernels.
-- ==
-- structure gpu { SegMap 2 Kernel 2 }
-- input { [2i64, 0i64, 3i64, 1i64] [10.0f32, 20.0f32, 30.0f32, 40.0f32] }
-- output { [1i64, 3i64, 0i64, 2i64] [20.0f32, 40.0f32, 10.0f32, 30.0f32] }
-- input { [0i64] [5.0f32] }
-- output { [0i64] [5.0f32] }
-- input { empty([0]i64) empty([0]f32) }
-- output { empty([0]i64) empty([0]f32) }
-- input @ data/inverse_permutation.in
-- output @ data/inverse_permutation.out

def invert [n] (perm: [n]i64) : [n]i64 = scatter (replicate n 0) perm (iota n)

def gather [n] 'a (src: [n]a) (is: [n]i64) : [n]a = map (\i -> src[i]) is

def main [n] (perm: [n]i64) (xs: [n]f32) : ([n]i64, [n]f32) =
  let inv = invert perm
  in (inv, gather xs inv)
