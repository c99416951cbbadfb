-- Negative: maps over arrays of different widths do not fuse: two SegMaps.
-- ==
-- structure gpu { SegMap 2 Kernel 2 }
-- input { [1i32, 2i32, 3i32] [4i32, 5i32] }
-- output { [2i32, 3i32, 4i32] [8i32, 10i32] }

def main (xs: []i32) (ys: []i32) : ([]i32, []i32) = (map (+1) xs, map (*2) ys)
