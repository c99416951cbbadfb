-- The prelude's id, const, flip, curry and uncurry take function values
-- (their type parameters are lifted, '^a, as in Futhark).
-- ==
-- input { 3 } output { 4 7 6 }

def main (x: i32) : (i32, i32, i32) =
  let (f, g) = id ((+ 1), (* 2))
  let h = const (+ 4) true
  in (f x, h x, uncurry (\a b -> a * b) (flip const 0 x, 2))
