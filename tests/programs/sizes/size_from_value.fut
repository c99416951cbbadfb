-- A size given by a value parameter.
-- ==
-- input { 5i64 }
-- output { 5 5i64 }
-- input { 0i64 }
-- output { 0 0i64 }

def ones (n: i64) : [n]i32 = replicate n 1

def main (n: i64) : (i32, i64) =
  let xs = ones n
  in (reduce (+) 0 xs, length xs)
