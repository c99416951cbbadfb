-- Flattened map nests, where the nest stays: an outer lambda that loops (its work would run again for each inner element), and a nest whose result is also used unflattened: both keep their flatten (Reshape 2), nothing fuses.
-- ==
-- structure { Screma 7 Reshape 2 }
-- entry: looped
-- input { [1i64, 2i64, 3i64] 2i64 }
-- output { 13i64 }
-- entry: reused
-- input { [1i64, 2i64] 3i64 }
-- output { 15i64 [[1i64, 2i64, 3i64], [2i64, 3i64, 4i64]] }

entry looped [n] (xs: [n]i64) (d: i64) : i64 =
  let nest = map (\x -> let y = loop y = x for i < x do y + i in map (\j -> y * j) (iota d)) xs
  in i64.sum (flatten nest) + i64.sum (map (+ 1) (iota d))

entry reused [n] (xs: [n]i64) (d: i64) : (i64, [n][d]i64) =
  let nest = map (\x -> map (\j -> x + j) (iota d)) xs
  in (i64.sum (flatten nest), nest)
