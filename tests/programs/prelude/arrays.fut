-- The functions of Futhark's array.fut: length, null, head, last, tail,
-- init, take, drop, sized, split, reverse, ++, concat, iota, indices,
-- replicate, rep, copy, manifest, flatten, flatten_3d, flatten_4d,
-- unflatten, unflatten_3d, unflatten_4d, transpose, rotate, and, or,
-- foldl, foldr, tabulate, tabulate_2d, tabulate_3d.
-- ==
-- input { [3i32, 1i32, 4i32, 1i32, 5i32, 9i32] }
-- output { 6i64 false true 3i32 9i32 [1i32, 4i32, 1i32, 5i32, 9i32] [3i32, 1i32, 4i32, 1i32, 5i32]
--          [3i32, 1i32] [5i32, 9i32] [3i32, 1i32, 4i32] [1i32, 5i32, 9i32] [9i32, 5i32, 1i32, 4i32, 1i32, 3i32]
--          [3i32, 1i32, 4i32, 1i32, 5i32, 9i32, 3i32] [5i32, 9i32, 3i32, 1i32] [0i64, 1i64, 2i64]
--          [0i64, 1i64, 2i64, 3i64, 4i64, 5i64] [7i32, 7i32] [8i32, 8i32, 8i32]
--          [3i32, 1i32, 4i32, 1i32, 5i32, 9i32] [3i32, 1i32, 4i32, 1i32, 5i32, 9i32]
--          [[3i32, 1i32, 4i32], [1i32, 5i32, 9i32]] [[3i32, 1i32], [4i32, 1i32], [5i32, 9i32]]
--          [3i32, 1i32, 4i32, 1i32, 5i32, 9i32] [3i32, 1i32, 4i32, 1i32, 5i32, 9i32]
--          [3i32, 1i32, 4i32, 1i32, 5i32, 9i32]
--          [[[3i32], [1i32]], [[4i32], [1i32]], [[5i32], [9i32]]]
--          [[[[3i32, 1i32, 4i32]]], [[[1i32, 5i32, 9i32]]]]
--          [[3i32, 1i32], [1i32, 5i32], [4i32, 9i32]]
--          [4i32, 1i32, 5i32, 9i32, 3i32, 1i32] [9i32, 3i32, 1i32, 4i32, 1i32, 5i32]
--          true false false true 23i32 1i32 [0i64, 1i64, 4i64, 9i64]
--          [[0i64, 1i64, 2i64], [10i64, 11i64, 12i64]] [[[0i64, 1i64], [10i64, 11i64]], [[100i64, 101i64], [110i64, 111i64]]] }

def main [n] (xs: [n]i32) =
  let m = n / 2
  let (a, b) = split (sized (3 + (n - 3)) xs)
  in ( length xs, null xs, null (drop n xs), head xs, last xs, tail xs, init xs
     , take 2 xs, drop 4 xs, a, b, reverse xs
     , xs ++ [3], concat (drop 4 xs) (take 2 xs), iota 3, indices xs
     , replicate 2 7i32, (rep 8i32 : [3]i32), copy xs, manifest xs
     , unflatten (xs :> [2 * 3]i32), unflatten (xs :> [3 * 2]i32)
     , flatten (unflatten (xs :> [2 * m]i32))
     , flatten_3d (unflatten_3d (xs :> [1 * 2 * 3]i32))
     , flatten_4d (unflatten_4d (xs :> [1 * 2 * 3 * 1]i32))
     , unflatten_3d (xs :> [3 * 2 * 1]i32)
     , unflatten_4d (xs :> [2 * 1 * 1 * 3]i32)
     , transpose (unflatten (xs :> [2 * 3]i32)) :> [3][2]i32
     , rotate 2 xs, rotate (-1) xs
     , and (map (> 0) xs), and (map (> 1) xs), or (map (> 9) xs), or (map (== 9) xs)
     , foldl (+) 0 xs, foldr (-) 0 xs
     , tabulate 4 (\i -> i * i)
     , tabulate_2d 2 3 (\i j -> 10 * i + j)
     , tabulate_3d 2 2 2 (\i j k -> 100 * i + 10 * j + k)
     )
