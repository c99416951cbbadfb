-- filter on (index, value) pairs to find positions.
-- ==
-- input { [97u8, 98u8, 97u8, 99u8, 97u8] 97u8 }
-- output { [0i64, 2i64, 4i64] }
-- input { [1u8, 2u8] 3u8 }
-- output { empty([0]i64) }

def main [n] (xs: [n]u8) (c: u8) : []i64 =
  let (is, _) = unzip (filter (\(_, x) -> x == c) (zip (iota n) xs))
  in is
