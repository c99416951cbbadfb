-- A matrix product (issue 18, RaijinCL's tuned kernels): its block-tiled
-- kernel has variants (block size, stage depth, work-group shape, register
-- blocking; --print-params lists them), which futhorc autotune tries on
-- each dataset: a square product, a small one, and a product of few rows
-- and columns over a long reduction, where large blocks leave most of the
-- device idle. The square one is for GPUs (notest: futhorc test on the
-- CPU backends would take minutes).
-- ==
-- notest random input { [4096][4096]f32 [4096][4096]f32 }
-- random input { [1024][1024]f32 [1024][1024]f32 }
-- random input { [256][8192]f32 [8192][256]f32 }

def main [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\row -> map (\col -> f32.sum (map2 (*) row col)) (transpose b)) a
