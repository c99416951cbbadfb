-- A perfect nest of two maps is flattened into ONE SegMap (no inner segmented op).
-- ==
-- structure gpu { SegMap 1 Kernel 1 }
-- input { [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]] }
-- output { [[2i32, 5i32], [8i32, 11i32], [14i32, 17i32]] }

def main (xss: [][]i32) : [][]i32 = map (\row -> map (\x -> x * 3 - 1) row) xss
