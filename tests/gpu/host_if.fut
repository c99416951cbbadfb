-- A host-level if is entered: each branch's reduction is its own SegRed.
-- ==
-- structure gpu { SegRed 2 Kernel 4 }
-- input { true [1i32, 2i32, 3i32, 4i32] }
-- output { 10i32 }
-- input { false [1i32, 2i32, 3i32, 4i32] }
-- output { 120i32 }

def main (b: bool) (xs: []i32) : i32 =
  if b then reduce (+) 0 xs else reduce (*) 1 (map (+1) xs)
