-- Negative: the destination overlaps itself (stride 0 writes both rows
-- to the same two elements). Each row is made by a loop that reads back
-- what it wrote; built in the shared elements, one row would read the
-- other's writes. The value is built apart and copied (the structure
-- check: two copies, the loop's initial row and this one; with stride 2
-- instead of 0 the value is built in place and only the first stays).
-- Which row's element lands in a shared element is not specified: a GPU
-- copies the rows at once, so the result is checked to hold, in each
-- element, that element of one of the rows.
-- ==
-- structure mem { Copy 2 }
-- input { [0i64, 0i64, 0i64] [1i64, 2i64] }
-- output { true }

entry main [n] (xs: *[n]i64) (ks: [2]i64) : bool =
  let vs = map (\k -> loop acc = replicate 2 0 for i < 2 do
                        let acc[i] = (if i == 0 then k else acc[i - 1] * 10)
                        in acc) ks
  let r = intrinsics.flat_update_2d xs 0 0 1 vs
  in (r[0] == 1 || r[0] == 2) && (r[1] == 10 || r[1] == 20) && r[2] == 0
