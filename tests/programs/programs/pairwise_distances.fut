-- All-pairs Euclidean distances and the closest pair distance.
-- ==
-- input { [0.0f64, 1.0f64, 0.0f64, 3.0f64] [0.0f64, 0.0f64, 2.0f64, 4.0f64] }
-- output { [[0.0f64, 1.0f64, 2.0f64, 5.0f64], [1.0f64, 0.0f64, 2.23606797749979f64,
--    4.47213595499958f64], [2.0f64, 2.23606797749979f64, 0.0f64, 3.605551275463989f64], [5.0f64,
--    4.47213595499958f64, 3.605551275463989f64, 0.0f64]] 1.0f64 }

def dist (x1: f64, y1: f64) (x2: f64, y2: f64) : f64 = f64.sqrt ((x1 - x2) ** 2 + (y1 - y2) ** 2)

def main [n] (xs: [n]f64) (ys: [n]f64) : ([n][n]f64, f64) =
  let ps = zip xs ys
  let d = map (\p -> map (dist p) ps) ps
  let off = flatten (tabulate_2d n n (\i j -> if i == j then f64.inf else d[i, j]))
  in (d, f64.minimum off)
