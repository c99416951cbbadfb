-- A map whose result is never used is removed; the reduction stays.
-- ==
-- structure { Screma 1 Reduce 1 }
-- input { [1, 2, 3, 4] }
-- output { 10 }
-- input { empty([0]i32) }
-- output { 0 }

def main (xs: []i32) : i32 =
  let ys = map (* 2) xs
  let _ = ys
  in i32.sum xs
