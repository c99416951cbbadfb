-- Two identical reductions become one (CSE up to renaming of the lambdas).
-- ==
-- structure { Screma 1 Reduce 1 }
-- input { [1, 2, 3, 4] }
-- output { 10 20 }

def main (xs: []i32) : (i32, i32) =
  let a = reduce (+) 0 xs
  let b = reduce (+) 0 xs
  in (a, a + b)
