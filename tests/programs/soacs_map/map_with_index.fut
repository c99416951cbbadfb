-- Mapping with the element index via map2 and iota.
-- ==
-- input { [5, 5, 5, 5] }
-- output { [0, 5, 10, 15] }

def main [n] (xs: [n]i32) : [n]i32 = map2 (\i x -> x * i32.i64 i) (iota n) xs
