-- In-place update of a strided slice.
-- ==
-- input { 5i64 }
-- output { [0i64, 1i64, 0i64, 3i64, 0i64] }
-- input { 4i64 }
-- output { [0i64, 1i64, 0i64, 3i64] }

def main (n: i64) : []i64 =
  let a = iota n
  let a[::2] = replicate ((n + 1) / 2) 0
  in a
