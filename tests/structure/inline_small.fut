-- A small function is inlined wherever it is applied, however many
-- places apply it.
-- ==
-- structure { Apply 0 }
-- input { [1i64, -2i64, 3i64] 4i64 }
-- output { [50i64, -2i64, 104i64] 47i64 }

def step (x: i64) (y: i64) : i64 = if x > 0 then x * 3 + y - 4 + 1 * 3 else x

entry main (xs: []i64) (k: i64) : ([]i64, i64) =
  let ys = map (\x -> step (step x k) 0) xs
  in (map (\y -> step y 0 - step 0 y) ys, step (step k k) (step 1 1))
