-- A size binder names a size of a value; the sizes of a function's
-- parameter and result are not one.
-- ==
-- error: 7:8: error: Cannot bind \[n\] as it is never used as the size of a concrete

def main (x: i32) =
  let [n] (f: [n]i32 -> [n]i32) = \(xs: [3]i32) -> map (+ x) xs
  in f [1, 2, 3]
