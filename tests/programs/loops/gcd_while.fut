-- Euclid's algorithm with a while loop.
-- ==
-- input { [12i64, 17i64, 100i64, 0i64, 48i64] [18i64, 5i64, 75i64, 9i64, 0i64] }
-- output { [6i64, 1i64, 25i64, 9i64, 48i64] }

def gcd (a: i64) (b: i64) : i64 =
  let (a, _) = loop (a, b) while b != 0 do (b, a % b)
  in a

def main (xs: []i64) (ys: []i64) : []i64 =
  let n = i64.min (length xs) (length ys)
  in map2 gcd (take n xs) (take n ys)
