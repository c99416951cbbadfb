-- Negative: the map takes the columns of xs (a transposition is a view),
-- whose elements lie apart while neighbouring work-items' columns are
-- neighbours: reads are coalesced already, so nothing is copied although
-- every column is traversed once per step of a loop.
-- ==
-- structure gpu { SegMap 1 Copy 0 }
-- input { 2i64 [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- output { [9i32, 12i32] }

def main (k: i64) (xs: [][]i32) : []i32 =
  map (\col -> loop acc = 0 for i < k do acc + i32.sum (map (* i32.i64 i) col)) (transpose xs)
