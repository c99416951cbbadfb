-- 1-D tiling of reductions over arrays of different element types (each
-- staged in a local array of its own), over two 8-byte arrays (interleaved
-- in one), and over five 4-byte arrays (interleaved, eight slots an
-- element); and an out-of-bounds index in the code before the tiled
-- reduction, which must be reported. The .out files are the C backend's
-- results.
-- ==
-- entry: mixed
-- structure gpu { Tiled 4 }
-- input { 0i64 } output { [0i64, 0i64, 0i64] }
-- input { 777i64 } output @ data/tile1_types_mixed.out

-- ==
-- entry: pairs
-- input { 1i64 } output @ data/tile1_types_pairs_1.out
-- input { 777i64 } output @ data/tile1_types_pairs.out

-- ==
-- entry: five
-- input { 777i64 } output @ data/tile1_types_five.out

-- ==
-- entry: oob
-- input { [1i64, 2i64, 3i64] [0i64, 2i64] } output { [6i64, 18i64] }
-- input { [1i64, 2i64, 3i64] [0i64, 3i64] } error: out of bounds

def gen (w: i64) = map (\j -> j * 5 % 9 - 4) (iota w)

entry mixed (w: i64) : []i64 =
  let as = gen w
  let fs = map (\j -> f32.i64 (j % 4)) (iota w)
  let bs = map (\j -> i32.i64 (j % 3)) (iota w)
  in map (\x -> reduce (+) 0 (map3 (\a f b -> x * a + i64.f32 f * i64.i32 b) as fs bs)) (iota (w / 2 + 3))

entry pairs (w: i64) : []i64 =
  let as = gen w
  let bs = map (+ 3) as
  in map (\x -> reduce i64.max i64.lowest (map2 (\a b -> a * x - b) as bs)) (map (* 2) (iota 600))

entry five (w: i64) : []i32 =
  let c k = map (\j -> i32.i64 ((j + k) % 5)) (iota w)
  let (a, b, d, e, f) = (c 0, c 1, c 2, c 3, c 4)
  in map (\x -> i32.sum (map5 (\p q r s t -> p * x + q * r - s * t) a b d e f)) (map i32.i64 (iota 300))

entry oob [n][m] (xs: [n]i64) (is: [m]i64) : [m]i64 =
  map (\i -> let x = xs[i] in reduce (+) 0 (map (\y -> y * x) xs)) is
