-- indices returns the valid indices of an array.
-- ==
-- input { [true, false, true, true] }
-- output { [0i64, 1i64, 2i64, 3i64] 5i64 }

def main (xs: []bool) : ([]i64, i64) =
  let is = indices xs
  in (is, reduce (+) 0 (map2 (\i x -> if x then i else 0) is xs))
