-- Two independent reductions over one array fuse horizontally into one SegRed.
-- ==
-- structure gpu { SegRed 1 Kernel 2 }
-- input { [3i32, -7i32, 12i32, 5i32] }
-- output { 13i32 12i32 }
-- input { [-5i32] }
-- output { -5i32 -5i32 }

def main (xs: []i32) : (i32, i32) =
  (reduce (+) 0 xs, reduce i32.max i32.lowest xs)
