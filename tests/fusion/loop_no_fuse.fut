-- Negative (wasteful): a producer outside a loop is not fused into a consumer inside it
-- (it would be recomputed every iteration).
-- ==
-- structure { Screma 2 Loop 1 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] 3i32 }
-- output { [4i32, 14i32, 30i32, 52i32, 80i32] }

def main (xs: []i32) (k: i32) : []i32 =
  let ys = map (\x -> x * x) xs
  in loop acc = xs for i < k do map2 (+) acc ys
