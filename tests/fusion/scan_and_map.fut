-- Vertical: a producer with a scan (screma into map) fuses its map output into a consumer map.
-- ==
-- structure { Screma 1 Scan 1 }
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { [11i64, 23i64, 36i64, 50i64, 65i64] [33i64, 36i64, 39i64, 42i64, 45i64] }

def main (xs: []i64) : ([]i64, []i64) =
  let ys = map (+10) xs
  let s = scan (+) 0 ys
  let zs = map (\y -> y * 3) ys
  in (s, zs)
