-- A histogram of derived keys: a bucket map (clamped) and a constant-one
-- weight map both feed `hist`. Both maps fuse into the histogram: one
-- SegHist, no SegMap: 1 kernel.
-- ==
-- structure gpu { SegHist 1 SegMap 0 Kernel 1 }
-- input { 4i64 0.0f32 2.5f32 [0.5f32, 3.0f32, 9.9f32, 12.0f32, -1.0f32, 5.0f32, 7.4f32] }
-- output { [2i32, 1i32, 2i32, 2i32] }
-- input { 1i64 0.0f32 1.0f32 [3.0f32] }
-- output { [1i32] }
-- input { 3i64 0.0f32 1.0f32 empty([0]f32) }
-- output { [0i32, 0i32, 0i32] }
-- input @ data/histogram_keys.in
-- output @ data/histogram_keys.out

def bucket (lo: f32) (width: f32) (k: i64) (x: f32) : i64 =
  let b = i64.f32 ((x - lo) / width)
  in i64.max 0 (i64.min (k - 1) b)

def histogram [n] (k: i64) (lo: f32) (width: f32) (xs: [n]f32) : [k]i32 =
  hist (+) 0 k (map (bucket lo width k) xs) (map (\_ -> 1) xs)

def main (k: i64) (lo: f32) (width: f32) (xs: []f32) : []i32 =
  histogram k lo width xs
