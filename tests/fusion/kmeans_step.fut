-- A k-means step (1-D): membership and the per-cluster (count, sum) histogram fuse;
-- the division by counts is a map over k centres.
-- ==
-- structure { Screma 1 Hist 1 }
-- input { [0.5f64, 9.0f64, 1.5f64, 8.0f64, 5.2f64, 0.0f64] [1.0f64, 5.0f64, 9.0f64] }
-- output { [0.6666666666666666f64, 5.2f64, 8.5f64] }

def nearest (cs: []f64) (p: f64) : i64 =
  let (_, j) = foldl (\(bd, bj) (c, j) -> let d = f64.abs (p - c) in if d < bd then (d, j) else (bd, bj))
                     (f64.inf, 0) (zip cs (indices cs))
  in j

def main [n] [k] (pts: [n]f64) (cs: [k]f64) : [k]f64 =
  let mem = map (nearest cs) pts
  let (cnt, sm) = unzip (hist (\(c1, s1) (c2, s2) -> (c1 + c2, s1 + s2)) (0i64, 0f64) k mem (zip (replicate n 1i64) pts))
  in map3 (\c s c0 -> if c > 0 then s / f64.i64 c else c0) cnt sm cs
