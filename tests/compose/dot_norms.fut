-- Three calls of a dot-product helper (map2 into reduce) over the same two
-- inputs: each map2 fuses vertically into its reduce, and the three
-- independent redomaps over the same arrays fuse horizontally into one
-- whole-array SegRed with three operators: 2 kernels.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { [1i32, 2i32, 3i32] [4i32, -5i32, 6i32] }
-- output { 12i32 14i32 77i32 }
-- input { [7i32] [-2i32] }
-- output { -14i32 49i32 4i32 }
-- input { empty([0]i32) empty([0]i32) }
-- output { 0i32 0i32 0i32 }
-- input @ data/dot_norms.in
-- output @ data/dot_norms.out

def dot [n] (a: [n]i32) (b: [n]i32) : i32 = reduce (+) 0 (map2 (*) a b)

def main [n] (a: [n]i32) (b: [n]i32) : (i32, i32, i32) =
  (dot a b, dot a a, dot b b)
