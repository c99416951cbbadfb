-- replicate of arrays and transpose of the result.
-- ==
-- input { [1, 2, 3] 2i64 }
-- output { [[1, 2, 3], [1, 2, 3]] [[1, 1], [2, 2], [3, 3]] }

def main (xs: []i32) (n: i64) : ([][]i32, [][]i32) =
  let m = replicate n xs
  in (m, transpose m)
