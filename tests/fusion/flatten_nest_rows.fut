-- Flattened map nests: a nest over the rows of a matrix and a scalar per row, whose inner map also reads an array bound outside (ys), flattened and summed, is one reduction over the n*m flat positions (row t / m, column t mod m); the outer lambda's own statement (s * 2) runs again for each element.
-- ==
-- structure { Screma 1 Reshape 0 }
-- structure gpu { SegRed 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [10i32, 100i32] [1i32, 0i32, 2i32] }
-- output { 3126i32 }
-- input { empty([0][3]i32) empty([0]i32) [1i32, 2i32, 3i32] }
-- output { 0i32 }
-- input { empty([2][0]i32) [1i32, 2i32] empty([0]i32) }
-- output { 0i32 }

def main [n][m] (rows: [n][m]i32) (scale: [n]i32) (ys: [m]i32) : i32 =
  i32.sum (flatten (map2 (\r s -> let s2 = s * 2 in map2 (\a y -> a * s2 + y) r ys) rows scale))
