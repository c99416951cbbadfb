-- A size binder of a let must be the size of an array in its pattern.
-- ==
-- error: 6:8: error: Size \[n\] unused in pattern.

def main (xs: []i32) =
  let [n] ys = filter (> 0) xs
  in (n, ys)
