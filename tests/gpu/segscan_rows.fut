-- A map of a scan over its rows is one segmented SegScan (one kernel, all
-- n*m elements in parallel): rows of several elements, rows of one
-- element, no rows, and rows of no elements.
-- ==
-- structure gpu { SegScan 1 SegMap 0 Kernel 1 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [[1i32, 3i32, 6i32], [4i32, 9i32, 15i32]] }
-- input { [[7i32], [-2i32], [5i32], [0i32]] }
-- output { [[7i32], [-2i32], [5i32], [0i32]] }
-- input { [[3i32, -1i32, 4i32, -1i32, 5i32, -9i32, 2i32]] }
-- output { [[3i32, 2i32, 6i32, 5i32, 10i32, 1i32, 3i32]] }
-- input { empty([0][4]i32) }
-- output { empty([0][4]i32) }
-- input { empty([3][0]i32) }
-- output { empty([3][0]i32) }

def main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\row -> scan (+) 0 row) xss
