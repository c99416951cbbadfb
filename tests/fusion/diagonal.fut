-- Vertical, diagonal: the producer output is also returned, so the fused Screma keeps it.
-- ==
-- structure { Screma 1 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [2i32, 5i32, 10i32, 17i32, 26i32] [1i32, 4i32, 9i32, 16i32, 25i32] }

def main (xs: []i32) : ([]i32, []i32) =
  let ys = map (\x -> x * x) xs
  in (map (+1) ys, ys)
