-- A three-dimensional input array.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[0, 0], [1, 1]]] }
-- output { 38 [[3, 7], [11, 15], [0, 2]] }

def main (a: [][][]i32) : (i32, [][]i32) =
  (i32.sum (flatten (flatten a)), map (map i32.sum) a)
