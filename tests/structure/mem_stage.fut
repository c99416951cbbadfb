-- After the memory pass the dead replicate allocates nothing: one block for
-- the result of the map.
-- ==
-- structure mem { Alloc 1 Replicate 0 Screma 1 }
-- input { [1, 2, 3] }
-- output { [2, 4, 6] }

def main [n] (xs: [n]i32) : [n]i32 =
  let _zs = replicate n 0i32
  in map (* 2) xs
