-- Block tiling of an i32 matrix product whose sizes are no multiples of a
-- block or a stage: 150 rows (a block of 128 and a partial one), 140
-- columns (likewise) and a reduction of 40 elements (two stages of 16 and
-- a partial one), so that every bounds check of the staging and of the
-- results is taken both ways. Integers, so every sum is exact.
-- ==
-- structure gpu { SegMap 1 Tiled 1 Kernel 1 Copy 0 }
-- input @ data/tiled_150x40x140.in
-- output @ data/tiled_150x40x140.out

def main [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : [n][m]i32 =
  map (\row -> map (\col -> i32.sum (map2 (*) row col)) (transpose b)) a
