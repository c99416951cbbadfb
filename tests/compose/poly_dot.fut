-- A polymorphic dot product with a size parameter, used at i32 and at f64.
-- The f64 use reads a converted copy of the same input (map f64.i32 xs),
-- which fuses into its reduce; both redomaps have width n and read xs, so
-- they fuse horizontally into one whole-array SegRed: 2 kernels.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { [1i32, 2i32, 3i32] [0.5f64, 0.25f64, 2.0f64] }
-- output { 14i32 7.0f64 }
-- input { [-4i32] [1.5f64] }
-- output { 16i32 -6.0f64 }
-- input { empty([0]i32) empty([0]f64) }
-- output { 0i32 0.0f64 }
-- input @ data/poly_dot.in
-- output @ data/poly_dot.out

def dot_with 'a [n] (add: a -> a -> a) (mul: a -> a -> a) (zero: a)
                    (xs: [n]a) (ys: [n]a) : a =
  reduce add zero (map2 mul xs ys)

def main [n] (xs: [n]i32) (ws: [n]f64) : (i32, f64) =
  let fx = map f64.i32 xs
  in (dot_with (+) (*) 0 xs xs, dot_with (+) (*) 0 fx ws)
