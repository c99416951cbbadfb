-- Block tiling of a nest with two results: the min-plus product of a and
-- b (shortest paths of two steps) and the ordinary product, from one
-- map-reduce over pairs, returned through `map unzip` and `unzip`. The
-- inner map's two rows are built in place in the two outputs (no copy, no
-- per-row allocation), so the nest stays one tiled SegMap.
-- ==
-- structure gpu { SegMap 1 Tiled 1 Kernel 1 Copy 0 }
-- input { [[0i32, 3i32, 9i32], [2i32, 0i32, 1i32]] [[0i32, 5i32], [1i32, 0i32], [4i32, 2i32]] }
-- output { [[0i32, 3i32], [1i32, 0i32]] [[39i32, 18i32], [4i32, 12i32]] }
-- input { [[1i32]] [[2i32]] }
-- output { [[3i32]] [[2i32]] }

def main [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : ([n][m]i32, [n][m]i32) =
  unzip (map unzip
    (map (\r -> map (\c -> reduce (\(x, s) (y, t) -> (i32.min x y, s + t)) (i32.highest, 0)
                               (map2 (\u v -> (u + v, u * v)) r c))
                    (transpose b))
         a))
