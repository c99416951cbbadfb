-- A map whose body transposes its row, maps over the columns and
-- transposes the result back (LUD's upper perimeter) is a perfect nest:
-- the inner map's result is built transposed in the outer row (a view),
-- so the SegMap takes both levels, one work-item per column. Each
-- work-item runs a loop that updates its column in place (a private
-- array).
-- ==
-- structure gpu { SegMap 1 }
-- input { [[[1f32, 2f32], [3f32, 4f32]], [[5f32, 6f32], [7f32, 8f32]], [[0f32, 1f32], [1f32, 0f32]]] }
-- output { [[[1f32, 2f32], [4f32, 6f32]], [[5f32, 6f32], [12f32, 14f32]], [[0f32, 1f32], [1f32, 1f32]]] }
-- input { empty([0][2][2]f32) }
-- output { empty([0][2][2]f32) }

entry main [m][b] (blocks: [m][b][b]f32) : [m][b][b]f32 =
  map (\blk ->
         transpose (map (\col0 ->
                           loop col = copy col0 for i < b do
                             let s = loop s = 0f32 for k < i do s + col[k]
                             in col with [i] = col[i] + s)
                        (transpose blk)))
      blocks
