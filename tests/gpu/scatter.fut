-- The map producing the values fuses into the scatter: one SegMap (the copy is a built-in kernel, not counted).
-- ==
-- structure gpu { SegMap 1 Kernel 1 }
-- input { [0i32, 0i32, 0i32, 0i32, 0i32] [4i64, 1i64, -1i64, 9i64] [1i32, 2i32, 3i32, 4i32] }
-- output { [0i32, 20i32, 0i32, 0i32, 10i32] }

def main [n][k] (dest: [n]i32) (is: [k]i64) (vs: [k]i32) : [n]i32 =
  scatter (copy dest) is (map (*10) vs)
