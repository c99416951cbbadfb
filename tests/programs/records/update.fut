-- Functional record update with `r with f = v`.
-- ==
-- input { [3i64, 9i64, -2i64, 4i64] }
-- output { 14i64 4i64 9i64 }
-- input { empty([0]i64) }
-- output { 0i64 0i64 -9223372036854775808i64 }

type acc = {sum: i64, count: i64, max: i64}

def step (a: acc) (x: i64) : acc =
  let a = a with sum = a.sum + x
  let a = a with count = a.count + 1
  in a with max = i64.max a.max x

def main (xs: []i64) : (i64, i64, i64) =
  let r = foldl step {sum = 0, count = 0, max = i64.lowest} xs
  in (r.sum, r.count, r.max)
