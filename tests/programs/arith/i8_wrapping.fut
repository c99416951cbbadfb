-- i8 arithmetic wraps around at 8 bits.
-- ==
-- input { [100i8, -100i8, 127i8, -128i8] [100i8, -100i8, 1i8, -1i8] }
-- output { [-56i8, 56i8, -128i8, 127i8] [16i8, 16i8, 127i8, -128i8] }

def main (xs: []i8) (ys: []i8) : ([]i8, []i8) =
  let n = i64.min (length xs) (length ys)
  let xs = take n xs
  let ys = take n ys
  in (map2 (+) xs ys, map2 (*) xs ys)
