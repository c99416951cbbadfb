-- Size parameters inside the size expressions of parameter types: n + m,
-- where the argument's type gives m and its size then gives n; a function
-- application, double n; a power, 2 ** k.
-- ==
-- input { [5, 1, 7, 2] }
-- output { 3i64 4i64 [5, 1, 7, 2] 8i64 15 }

def split_sizes [n] [m] 't (_: [n + m]t) = (n, m)

def double (x: i64) = 2 * x

def twice [n] (xs: [n]i32) : [double n]i32 = xs ++ xs :> [double n]i32

def first_half [n] 't (xs: [double n]t) : [n]t = take n xs

def halves [k] (xs: [2 ** k]i32) : i64 = 2 ** k

def main [n] (xs: [n]i32) =
  let (a, b) = split_sizes (filter (> 1) xs ++ xs)
  let k = 3
  in (a, b, first_half (twice xs), halves (replicate (2 ** k) 1i32 :> [2 ** k]i32), i32.sum xs)
