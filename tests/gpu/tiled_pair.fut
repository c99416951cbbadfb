-- Block tiling with two accumulators and an operator that is not a sum:
-- the min-plus product of a and b (shortest paths of two steps) and the
-- ordinary product, from one map-reduce over pairs, combined after the
-- reduction as min * 1000 + product.
-- ==
-- structure gpu { SegMap 1 Tiled 1 Kernel 1 }
-- input { [[0i32, 3i32, 9i32], [2i32, 0i32, 1i32]] [[0i32, 5i32], [1i32, 0i32], [4i32, 2i32]] }
-- output { [[39i32, 3018i32], [1004i32, 12i32]] }
-- input { [[1i32]] [[2i32]] }
-- output { [[3002i32]] }

def main [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : [n][m]i32 =
  map (\r -> map (\c -> let (mn, s) = reduce (\(x, s) (y, t) -> (i32.min x y, s + t)) (i32.highest, 0)
                                             (map2 (\u v -> (u + v, u * v)) r c)
                        in mn * 1000 + s)
                 (transpose b))
      a
