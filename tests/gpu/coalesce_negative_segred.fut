-- Negative: a map whose rows are reduced is a segmented SegRed, whose
-- lanes read each row coalesced already: no copy of the input, even
-- though the map body reduces the row twice (horizontally fused into one
-- reduction).
-- ==
-- structure gpu { SegRed 1 SegMap 0 Copy 0 }
-- input { [[1i32, -2i32, 3i32], [4i32, 5i32, -6i32]] }
-- output { [5i32, 8i32] }

def main (xss: [][]i32) : []i32 =
  map (\row -> i32.sum row + i32.maximum row) xss
