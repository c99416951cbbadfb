-- scatter writes values at indices.
-- ==
-- input { 5i64 [0i64, 3i64, 1i64] [7, 8, 9] }
-- output { [7, 9, 0, 8, 0] }

def main (n: i64) (is: []i64) (vs: []i32) : []i32 =
  let k = i64.min (length is) (length vs)
  in scatter (replicate n 0) (take k is) (take k vs)
