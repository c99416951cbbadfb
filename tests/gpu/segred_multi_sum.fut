-- The commutative form of segred_multi: few long rows summed by several
-- work-groups each (strided, unrolled folds), then combined.
-- ==
-- structure gpu { SegRed 1 SegMap 0 }
-- input { [[1u8, 2u8, 3u8], [4u8, 5u8, 250u8]] }
-- output { [1500i64, 64750i64] }
-- input @ data/segred_multi.in
-- output @ data/segred_multi_sum.out

def main [n][m] (xss: [n][m]u8) : [n]i64 =
  map (\row -> 1000 * i64.sum (map i64.u8 row) / (m + 1)) xss
