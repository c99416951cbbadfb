-- A '*' on a component of a tuple parameter consumes that component of
-- the argument; the other components may still be used.
-- ==
-- input { 4i64 } output { [0i64, 7i64, 2i64, 3i64] 5i64 }

def set (a: *[]i64, i: i64, k: i64) : []i64 = let a[i] = k in a

def main (n: i64) : ([]i64, i64) =
  let a = iota n
  let k = n + 1
  in (set (a, 1, 7), k)
