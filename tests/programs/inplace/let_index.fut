-- In-place update with `let a[i] = v`.
-- ==
-- input { 3i64 }
-- output { [5i64, 0i64, 7i64] }
-- input { 1i64 }
-- output { [12i64] }

def main (n: i64) : []i64 =
  let a = replicate n 0
  let a[0] = 5
  let a[n - 1] = a[n - 1] + 7
  in a
