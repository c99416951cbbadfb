-- A block-tiled matrix product: its kernel has two sets of variants (tile
-- sizes, work-group shapes, register blocking), one for large spaces and
-- one for small ones, with a threshold between them; the tuner tunes the
-- threshold, then tries each variant of each set on both datasets.
-- ==
-- random input { [40][30]i32 [30][50]i32 }
-- random input { [70][20]i32 [20][9]i32 }

def main [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : [n][m]i32 =
  map (\row -> map (\col -> i32.sum (map2 (*) row col)) (transpose b)) a
