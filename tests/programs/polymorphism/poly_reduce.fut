-- A generic reduction helper instantiated at i32 and f64.
-- ==
-- input { [4, -2, 9] [1.5f64, 2.0f64, -1.0f64] }
-- output { 11 -3.0f64 9 }

def fold_with 'a [n] (op: a -> a -> a) (ne: a) (xs: [n]a) : a = reduce op ne xs

def main (xs: []i32) (ys: []f64) : (i32, f64, i32) =
  (fold_with (+) 0 xs, fold_with (*) 1.0 ys, fold_with i32.max i32.lowest xs)
