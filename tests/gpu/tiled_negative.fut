-- Negative: the map-reduce's lambda indexes an array, which could fail (or
-- read out of bounds) on the zeros that pad a partial tile, so the nest is
-- not block-tiled; it is a segmented SegRed over the n by m points
-- instead (each point's reduction a segment).
-- ==
-- structure gpu { SegRed 1 Tiled 0 Kernel 1 }
-- input { [[0i64, 1i64], [2i64, 0i64]] [[1i64, 1i64], [0i64, 2i64]] [10i64, 20i64, 30i64] }
-- output { [[32i64, 32i64], [42i64, 42i64]] }

def main [n][k][m] (a: [n][k]i64) (b: [m][k]i64) (w: [3]i64) : [n][m]i64 =
  map (\r -> map (\c -> reduce (+) 0 (map2 (\x y -> w[x] + y) r c)) b) a
