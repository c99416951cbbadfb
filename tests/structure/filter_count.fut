-- The length of a filter whose elements are not used: the count of the
-- elements that pass is the total of a scan of their flags (its last
-- element, 0 when the array is empty), and a scan used only for its total
-- is a reduction (simplify.c, scan_to_reduce): no array of positions is
-- made. The same holds inside a map (each row a segmented reduction), and
-- for an empty array.
-- ==
-- structure { Scan 0 Reduce 2 }
-- structure gpu { SegScan 0 SegRed 2 }
-- input { [5, 1, 7, 2] [[1, 2, 3], [4, 5, 6]] }
-- output { 2i64 [1i64, 3i64] }
-- input { empty([0]i32) empty([0][3]i32) }
-- output { 0i64 empty([0]i64) }

def main (xs: []i32) (rs: [][]i32) = (length (filter (> 2) xs), map (\r -> length (filter (> 2) r)) rs)
