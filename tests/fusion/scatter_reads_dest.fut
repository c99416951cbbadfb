-- Negative (legality): the value map reads the array the scatter writes into, so it must
-- finish first (fused, element 3 would read the new element 0).
-- ==
-- structure { Screma 1 Scatter 1 }
-- input { [1i32, 2i32, 3i32, 4i32] [0i64, 3i64] }
-- output { [8i32, 2i32, 3i32, 2i32] }

def main [n] (xs: *[n]i32) (is: []i64) : []i32 =
  let vs = map (\i -> xs[n - 1 - i] * 2) is
  in scatter xs is vs
