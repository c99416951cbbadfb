-- Block tiling: a matrix product is one SegMap whose groups compute
-- 128 x 128 blocks and stage 16 elements of their rows and columns at a
-- time in local memory. The data files have products of sizes that cross
-- a block (130 rows; 130 columns) and a step (17 and 33 elements); the
-- others have one point, no rows and an empty reduction. The factors are
-- small integers in f32, so every sum is exact. The rows the tiles stage
-- are read coalesced already: neither input is copied to another layout.
-- ==
-- structure gpu { SegMap 1 Tiled 1 Kernel 1 Copy 0 }
-- input @ data/matmul_130x17x3.in
-- output @ data/matmul_130x17x3.out
-- input @ data/matmul_3x33x130.in
-- output @ data/matmul_3x33x130.out
-- input { [[2f32]] [[-3f32]] }
-- output { [[-6f32]] }
-- input { empty([0][4]f32) [[1f32], [2f32], [3f32], [4f32]] }
-- output { empty([0][1]f32) }
-- input { empty([2][0]f32) empty([0][3]f32) }
-- output { [[0f32, 0f32, 0f32], [0f32, 0f32, 0f32]] }

def main [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
