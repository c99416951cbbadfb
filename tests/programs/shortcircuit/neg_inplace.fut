-- Negative in-place maps, each keeping a block of its own: the array is
-- not unique (the caller keeps it); it is used after the map; the map
-- reads it again (a rotation, through another element); a reversed view
-- of it is read alongside; a loop parameter starts as a parameter the
-- caller keeps; a loop parameter starts as a unique parameter that the
-- loop's body reads again, itself or through a slice of it made before
-- the loop (the loop's maps must not overwrite it). Structure counts are
-- the whole program's: seven entry points, one block each (an in-place
-- map would leave fewer).
-- ==
-- entry: shared
-- structure mem { Alloc 7 }
-- input { [1i32, 2i32] }
-- output { [3i32, 4i32] }

-- ==
-- entry: used_after
-- input { [1i32, 2i32] }
-- output { [3i32, 4i32] 1i32 }

-- ==
-- entry: rotate
-- input { [1i32, 2i32, 3i32] }
-- output { [3i32, 5i32, 4i32] }

-- ==
-- entry: reversed
-- input { [1i32, 2i32, 3i32] }
-- output { [4i32, 4i32, 4i32] }

-- ==
-- entry: loop_shared
-- input { [1i32, 2i32] 2 }
-- output { [4i32, 8i32] }

-- ==
-- entry: loop_reads_init
-- input { [1i32, 2i32, 3i32, 4i32] 1 }
-- output { [3i32, 5i32, 7i32, 5i32] }
-- input { [1i32, 2i32, 3i32, 4i32] 2 }
-- output { [5i32, 8i32, 11i32, 6i32] }

-- ==
-- entry: loop_reads_view
-- input { [1i32, 2i32, 3i32, 4i32] 2 }
-- output { [5i32, 8i32, 11i32, 8i32] }

entry shared [n] (xs: [n]i32) : [n]i32 = map (+2) xs

entry used_after [n] (xs: *[n]i32) : ([n]i32, i32) = (map (+2) xs, xs[0])

entry rotate [n] (xs: *[n]i32) : [n]i32 =
  map2 (\x i -> x + xs[(i + 1) % n]) xs (iota n)

entry reversed [n] (xs: *[n]i32) : [n]i32 = map2 (+) xs (reverse xs)

entry loop_shared [n] (xs: [n]i32) (k: i32) : [n]i32 =
  loop xs for _i < k do map (*2) xs

entry loop_reads_init [n] (xs: *[n]i32) (k: i32) : [n]i32 =
  loop acc = xs for _i < k do map2 (\a j -> a + xs[(j + 1) % n]) acc (iota n)

entry loop_reads_view [n] (xs: *[n]i32) (k: i32) : [n]i32 =
  let ys = xs[1:]
  in loop acc = xs for _i < k do map2 (\a j -> a + ys[j % (n - 1)]) acc (iota n)
