-- Two maps of one width over the same array fuse horizontally: one SegMap.
-- ==
-- structure gpu { SegMap 1 Kernel 1 }
-- input { [1i32, 2i32, 3i32] }
-- output { [2i32, 3i32, 4i32] [2i32, 4i32, 6i32] }

def main (xs: []i32) : ([]i32, []i32) = (map (+1) xs, map (*2) xs)
