-- A histogram with no buckets: every index is out of bounds and is
-- ignored, and the result is empty (on OpenCL, the kernel's local
-- sub-histogram must not be of size 0).
-- ==
-- input { 0i64 [0i64, 1i64, -1i64] }
-- output { empty([0]i32) }
-- input { 0i64 empty([0]i64) }
-- output { empty([0]i32) }
-- input { 2i64 [1i64, 1i64, 5i64] }
-- output { [0i32, 2i32] }

def main [n] (k: i64) (is: [n]i64) : [k]i32 = hist (+) 0 k is (replicate n 1i32)
