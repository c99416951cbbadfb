-- Linear regression by gradient descent: a host loop whose body computes
-- the residuals (map2) and two means (reduce of residual*x, reduce of
-- residuals). The residual map fuses into both reductions, which fuse
-- horizontally: one whole-array SegRed per iteration, 2 kernels.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { 200i32 0.1f64 [0.0f64, 1.0f64, 2.0f64, 3.0f64] [1.0f64, 3.0f64, 5.0f64, 7.0f64] }
-- output { 2.0000579f64 0.99987634f64 }
-- input { 3i32 0.5f64 [2.0f64] [4.0f64] }
-- output { 7.0f64 3.5f64 }
-- input { 0i32 0.1f64 [1.0f64] [2.0f64] }
-- output { 0.0f64 0.0f64 }
-- input @ data/gradient_descent.in
-- output @ data/gradient_descent.out

def mean [n] (xs: [n]f64) : f64 = reduce (+) 0 xs / f64.i64 n

def grad [n] (w: f64) (b: f64) (xs: [n]f64) (ys: [n]f64) : (f64, f64) =
  let errs = map2 (\x y -> w * x + b - y) xs ys
  in (mean (map2 (*) errs xs), mean errs)

def main [n] (iters: i32) (lr: f64) (xs: [n]f64) (ys: [n]f64) : (f64, f64) =
  loop (w, b) = (0, 0) for _i < iters do
    let (gw, gb) = grad w b xs ys
    in (w - lr * gw, b - lr * gb)
