-- Polymorphic functions over arrays with size parameters.
-- ==
-- input { [1, 2, 3] [0.5f32, 1.5f32] }
-- output { 2 1.5f32 [1, 2, 3] [3, 2, 1] }

def second [n] 't (xs: [n]t) : t = xs[1]

def pairs [n] 't (xs: [n]t) : [n](t, t) = zip xs (reverse xs)

def main (xs: []i32) (ys: []f32) : (i32, f32, []i32, []i32) =
  let (a, b) = unzip (pairs xs)
  in (second xs, second ys, a, b)
