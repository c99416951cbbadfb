-- Two maps fuse into the reduction: one SegRed, two kernels (partial results + combine).
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { [1i32, 2i32, 3i32, 4i32] }
-- output { 28i32 }
-- input { empty([0]i32) }
-- output { 0i32 }

def main (xs: []i32) : i32 = reduce (+) 0 (map (*2) (map (+1) xs))
