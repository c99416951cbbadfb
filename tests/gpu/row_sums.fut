-- A map whose body holds a reduction is one SegMap; the reduction runs sequentially per work-item.
-- ==
-- structure gpu { SegMap 1 SegRed 0 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] }
-- output { [6i32, 15i32, 24i32] }
-- input { empty([0][3]i32) }
-- output { empty([0]i32) }

def main (xss: [][]i32) : []i32 = map (\row -> reduce (+) 0 row) xss
