-- A SOAC whose only input replicates a scalar takes the scalar in its
-- lambda, so the replicated array is never built: `i32.sum (replicate m
-- x)` in a map needs no array of m elements per element (futhark-
-- benchmarks' micro/reduce-segmented, one segment of 10^8 elements,
-- asked an H100 for 256 such arrays at once and ran out of memory).
-- ==
-- structure mem { Replicate 0 Alloc 1 }
-- input { 3i64 4i64 }
-- output { [0, 4, 8] }
-- input { 2i64 0i64 }
-- output { [0, 0] }

def main (n: i64) (m: i64) : []i32 = map (\i -> i32.sum (replicate m (i32.i64 i))) (iota n)
