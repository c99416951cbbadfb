-- Negative: the destination overlaps itself (stride 0 writes both rows
-- to the same two elements). Each row is made by a loop that reads back
-- what it wrote (a prefix sum); built in the shared elements, one row
-- would read the other's writes. The value is built apart and copied:
-- the last row wins, as in a copy in order. (With stride 2 instead of 0
-- the value is built in place: one copy, the loop's initial row, against
-- two here.)
-- ==
-- structure mem { Copy 2 }
-- input { [0i64, 0i64, 0i64] [1i64, 2i64] }
-- output { [2i64, 2i64, 0i64] }

entry main [n] (xs: *[n]i64) (ks: [2]i64) : *[n]i64 =
  let vs = map (\k -> loop acc = replicate 2 0 for i < 2 do
                        let acc[i] = (if i == 0 then k else acc[i - 1] + 0)
                        in acc) ks
  in intrinsics.flat_update_2d xs 0 0 1 vs
