-- Slicing matrices: columns, sub-blocks and mixed index/slice.
-- ==
-- input { [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]] }
-- output { [2, 6, 10] [[5, 6], [9, 10]] [10, 11, 12] [[1, 4], [9, 12]] }

def main (a: [][]i32) : ([]i32, [][]i32, []i32, [][]i32) =
  (a[:, 1], a[1:3, 0:2], a[2, 1:], a[::2, ::3])
