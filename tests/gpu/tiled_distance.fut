-- Block tiling with both inputs read along their rows (no transpose), a
-- map that is not a product and code after the reduction: squared
-- distances between every point of ps and every point of qs, plus one.
-- ==
-- structure gpu { SegMap 1 Tiled 1 Kernel 1 }
-- input { [[0i32, 0i32], [1i32, 2i32], [-3i32, 4i32]] [[1i32, 1i32], [0i32, -2i32]] }
-- output { [[3i32, 5i32], [2i32, 18i32], [26i32, 46i32]] }
-- input { [[5i32]] empty([0][1]i32) }
-- output { empty([1][0]i32) }

def sqdist [d] (p: [d]i32) (q: [d]i32) : i32 =
  reduce (+) 0 (map2 (\x y -> (x - y) * (x - y)) p q)

def main [n][m][d] (ps: [n][d]i32) (qs: [m][d]i32) : [n][m]i32 =
  map (\p -> map (\q -> sqdist p q + 1) qs) ps
