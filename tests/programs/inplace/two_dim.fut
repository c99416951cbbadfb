-- In-place updates of an element and of a row in a matrix.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] }
-- output { [[1, 100], [50, 60], [5, 6]] }

def main (a: *[][]i32) : [][]i32 =
  let a[0, 1] = 100
  let a[1] = map (* 10) a[2]
  in a
