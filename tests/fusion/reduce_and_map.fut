-- Vertical: one map feeds both a reduction and a map; all three become one Screma.
-- ==
-- structure { Screma 1 Reduce 1 }
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { 35i64 [9i64, 25i64, 49i64, 81i64, 121i64] }
-- input { [-3i64, 0i64, 7i64, 10i64, -8i64, 2i64] }
-- output { 22i64 [25i64, 1i64, 225i64, 441i64, 225i64, 25i64] }

def main (xs: []i64) : (i64, []i64) =
  let ys = map (\x -> x * 2 + 1) xs
  let s = reduce (+) 0 ys
  let zs = map (\y -> y * y) ys
  in (s, zs)
