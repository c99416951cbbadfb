-- 1-D tiling with an operator that is associative but not commutative
-- (composition of affine maps x -> a*x + b): the lanes that split one
-- element's reduction must combine their chunks in order. With 3 elements
-- and 3000 terms, each element's reduction is split over many lanes.
-- The .out files are the C backend's results.
-- ==
-- entry: affine
-- structure gpu { Tiled 2 }
-- input { [1i64, 2i64] [3i64, 1i64, 2i64] }
-- output { [6i64, 6i64] [23i64, 46i64] }

-- ==
-- entry: sized
-- input { 3i64 3000i64 } output @ data/tile1_order_3x3000.out
-- input { 700i64 300i64 } output @ data/tile1_order_700x300.out
-- input { 1i64 257i64 } output @ data/tile1_order_1x257.out

def compose (a: i64, b: i64) (c: i64, d: i64) : (i64, i64) = (a * c, b * c + d)

entry affine [n][w] (xs: [n]i64) (ys: [w]i64) : ([n]i64, [n]i64) =
  unzip (map (\x -> reduce compose (1, 0) (map (\y -> (y % 3 + 1, x * y % 7)) ys)) xs)

entry sized (n: i64) (w: i64) : ([n]i64, [n]i64) =
  affine (map (\i -> i * 3 + 1) (iota n)) (map (\j -> j * 7 % 23) (iota w))
