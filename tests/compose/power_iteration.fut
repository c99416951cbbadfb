-- Power iteration: a host loop around matvec (a map of dot products: one
-- segmented SegRed, 1 kernel) followed by normalise (a whole-array sum of
-- squares, 2 kernels, whose result the division map needs: a SegMap, 1
-- kernel). The initial normalise before the loop adds another SegRed and
-- SegMap. The matvec result feeds both the norm and the division, and the
-- norm is needed before the division, so nothing more fuses.
-- SegRed 3 (1 segmented + 2 whole-array), SegMap 2: 1+2+1 + 2+1 = 7 kernels.
-- (Fusing matvec into the sum of squares as one whole-array SegRed whose
-- work-items each compute a whole dot product gives 6 kernels with only
-- n-way parallelism; that is a defensible alternative, not the expectation.)
-- The loop's matvec and sum of squares keep that alternative as a second
-- version (one more SegRed, 2 kernels), which a run takes when n reaches
-- threshold main.suff_outer_par_0 (issue 18): 9 kernels.
-- ==
-- structure gpu { Threshold 1 SegRed 4 SegMap 2 Kernel 9 }
-- input { 10i32 [[2.0f64, 0.0f64], [0.0f64, 1.0f64]] [1.0f64, 1.0f64] }
-- output { [0.999999523f64, 0.000976562f64] }
-- input { 3i32 [[2.0f64, 1.0f64], [1.0f64, 2.0f64]] [1.0f64, 0.0f64] }
-- output { [0.73279349f64, 0.6804511f64] }
-- input { 0i32 [[1.0f64, 2.0f64], [3.0f64, 4.0f64]] [3.0f64, 4.0f64] }
-- output { [0.6f64, 0.8f64] }
-- input { 2i32 [[3.0f64]] [-2.0f64] }
-- output { [-1.0f64] }
-- input @ data/power_iteration.in
-- output @ data/power_iteration.out

def dot [n] (a: [n]f64) (b: [n]f64) : f64 = reduce (+) 0 (map2 (*) a b)

def matvec [n][m] (mat: [n][m]f64) (v: [m]f64) : [n]f64 =
  map (\row -> dot row v) mat

def normalise [n] (v: [n]f64) : [n]f64 =
  let len = f64.sqrt (dot v v)
  in map (/ len) v

def main [n] (k: i32) (mat: [n][n]f64) (v0: [n]f64) : [n]f64 =
  loop v = normalise v0 for _i < k do normalise (matvec mat v)
