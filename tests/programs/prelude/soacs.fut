-- The functions of Futhark's soacs.fut and zip.fut: map, map1 ... map5,
-- reduce, reduce_comm, scan, exscan, hist, reduce_by_index and its 2-d
-- and 3-d forms, scatter and its 2-d and 3-d forms, spread, filter,
-- partition, partition2, all, any, zip ... zip5, unzip ... unzip5.
-- ==
-- input { [3i64, 1i64, 4i64, 1i64, 5i64] }
-- output { [4i64, 2i64, 5i64, 2i64, 6i64] [4i64, 2i64, 5i64, 2i64, 6i64] [6i64, 2i64, 8i64, 2i64, 10i64]
--          [9i64, 3i64, 12i64, 3i64, 15i64] [12i64, 4i64, 16i64, 4i64, 20i64] [15i64, 5i64, 20i64, 5i64, 25i64]
--          14i64 5i64 [3i64, 4i64, 8i64, 9i64, 14i64] [0i64, 3i64, 4i64, 8i64, 9i64]
--          [0i64, 2i64, 0i64, 3i64, 4i64, 5i64] [9i64, 9i64, 9i64, 11i64, 12i64, 13i64]
--          [[0i32, 4i32], [7i32, 0i32]] [[[1i32, 0i32], [0i32, 0i32]], [[0i32, 0i32], [0i32, 5i32]]]
--          [0i64, 1i64, 0i64, 3i64, 4i64, 5i64] [[0i32, 1i32], [3i32, 0i32]]
--          [[[0i32, 0i32], [0i32, 0i32]], [[0i32, 5i32], [0i32, 0i32]]] [7i32, 3i32, 7i32, 1i32]
--          [4i64] [4i64, 5i64, 3i64, 1i64, 1i64] [4i64] [3i64, 1i64, 1i64] [5i64]
--          true false true false
--          [3i64, 1i64, 4i64, 1i64, 5i64] [6i64, 2i64, 8i64, 2i64, 10i64] [3i64, 1i64, 4i64, 1i64, 5i64]
--          [9i64, 3i64, 12i64, 3i64, 15i64] [6i64, 2i64, 8i64, 2i64, 10i64] [3i64, 1i64, 4i64, 1i64, 5i64]
--          [true, true, false, true, true] [4i64, 3i64, 2i64, 1i64, 0i64] }

def main [n] (xs: [n]i64) =
  let ys = map (* 2) xs
  let zs = map (* 3) xs
  let (a2, b2) = unzip (zip xs ys)
  let (a3, _, c3) = unzip3 (zip3 xs ys zs)
  let (_, b4, _, _) = unzip4 (zip4 xs ys zs (map (% 2) xs))
  let (a5, _, _, d5, e5) = unzip5 (zip5 xs ys zs (map (\x -> x % 2 == 1) xs) (reverse (iota n)))
  let (p1, p2) = partition (> 3) xs
  let (q1, q2, q3) = partition2 (== 4) (< 5) xs
  in ( map (+ 1) xs, map1 (+ 1) xs, map2 (+) xs xs, map3 (\a b c -> a + b + c - a) xs ys xs
     , map4 (\a b c d -> a + b + c + d - c) xs ys zs xs, map5 (\a b c d e -> a + b + c + d + e - 2 * a - d) xs ys zs xs xs
     , reduce (+) 0 xs, reduce_comm i64.max 0 xs, scan (+) 0 xs, exscan (+) 0 xs
     , hist (+) 0 6 xs xs, reduce_by_index (replicate 6 9) (+) 0 xs (map (\x -> x - 1) xs)
     , reduce_by_index_2d (replicate 2 (replicate 2 0)) (+) 0 [(0, 1), (1, 0), (1, 0), (9, 0)] [4, 3, 4, 100]
     , reduce_by_index_3d (replicate 2 (replicate 2 (replicate 2 0))) (+) 0 [(0, 0, 0), (1, 1, 1), (1, 1, 1), (2, 0, 0)] [1, 2, 3, 7]
     , scatter (replicate 6 0) xs xs, scatter_2d (replicate 2 (replicate 2 0)) [(0, 1), (1, 0), (2, 2)] [1, 3, 9]
     , scatter_3d (replicate 2 (replicate 2 (replicate 2 0))) [(1, 0, 1), (-1, 0, 0)] [5, 6]
     , spread 4 7 [3, 1, 8] [1, 3, 5]
     , filter (== 4) xs, p1 ++ p2, q1, q2, q3
     , all (> 0) xs, all (> 1) xs, any (== 5) xs, any (> 5) xs
     , a2, b2, a3, c3, b4, a5, d5, e5
     )
