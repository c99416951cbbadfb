-- unzip of a 2D array of pairs (via map unzip).
-- ==
-- input { [[12, 34], [56, 78]] }
-- output { [[1, 3], [5, 7]] [[2, 4], [6, 8]] }

def main [n] [m] (a: [n][m]i32) : ([n][m]i32, [n][m]i32) =
  let pairs = map (map (\x -> (x / 10, x % 10))) a
  in unzip (map unzip pairs)
