-- Vertical inside a lambda: the inner maps of each row fuse (outer map stays).
-- ==
-- structure { Screma 2 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [[4i32, 6i32, 8i32], [10i32, 12i32, 14i32]] }

def main (rows: [][]i32) : [][]i32 =
  map (\row -> map (\x -> x * 2) (map (\x -> x + 1) row)) rows
