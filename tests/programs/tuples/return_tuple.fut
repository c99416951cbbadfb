-- Functions returning tuples, taken apart by patterns.
-- ==
-- input { [3, -1, 7, 2] }
-- output { -1 7 8 }
-- input { [5] }
-- output { 5 5 0 }

def minmax (xs: []i32) : (i32, i32) =
  (reduce i32.min i32.highest xs, reduce i32.max i32.lowest xs)

def main (xs: []i32) : (i32, i32, i32) =
  let (lo, hi) = minmax xs
  in (lo, hi, hi - lo)
