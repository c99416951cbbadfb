-- Entry points take arrays of tuples (one array per component) and return
-- nested tuples (one value per leaf).
-- ==
-- input { [1, 2, 3] [true, false, true] 5 }
-- output { 4 true [2, 3, 4] 2i64 }

def main [n] (xs: [n](i32, bool)) (k: i32) : ((i32, bool), ([n]i32, i64)) =
  let (is, bs) = unzip xs
  let m = length (filter id bs)
  in ((is[0] + 3, bs[2] && k > 4), (map (+1) is, m))
