-- Parallel histograms: every task fills buckets of its own, which are
-- then combined into the destination (whose contents count too).
-- ==
-- entry: counts
-- input { 1000000i64 1000i64 } output { 1000i64 1993i32 1994017i32 }
-- input { 1000003i64 97i64 } output { 97i64 40000i32 1970003i32 }
-- input { 0i64 10i64 } output { 10i64 0i32 0i32 }
-- input { 100i64 0i64 } output { 0i64 0i32 0i32 }

entry counts (n: i64) (m: i64) : (i64, i32, i32) =
  let is = map (\i -> (i * 7919) % (m + 3) - 1) (iota n)
  let h = hist (+) 0i32 m is (map (\i -> i32.i64 (i % 5)) (iota n))
  in (length h, if m > 0 then h[0] else 0, reduce (+) 0 h)

-- A maximum over buckets that start from non-neutral values.
-- ==
-- entry: maxes
-- input { 200000i64 } output { 640286i64 10004i64 }

entry maxes (n: i64) : (i64, i64) =
  let dest = map (\b -> b * 100) (iota 64)
  let h = reduce_by_index dest i64.max i64.lowest (map (% 64) (iota n)) (map (\i -> (i * 37) % 10007) (iota n))
  in (reduce (+) 0 h, h[63])

-- Buckets that are rows, combined by an operator that maps a scalar
-- operator over them (Futhark's vectorised operators): every task fills
-- rows of its own (one loop over the row an update), which are combined
-- row by row. Out-of-bounds indices (-1 and k, k + 1) are ignored, and
-- the destination's contents count.
-- ==
-- entry: rows
-- input { 1000000i64 37i64 5i64 }
-- output { [125000i32, 125002i32, 125004i32, 125006i32, 125008i32]
--          [125184i32, 125175i32, 125188i32, 125179i32, 125181i32] 23142023i64 }
-- input { 100i64 4i64 3i64 } output { [66i32, 77i32, 66i32] [76i32, 76i32, 87i32] 917i64 }
-- input { 0i64 3i64 2i64 } output { [0i32, 1i32] [4i32, 5i32] 15i64 }
-- input { 50000i64 2i64 0i64 } output { empty([0]i32) empty([0]i32) 0i64 }

entry rows (n: i64) (k: i64) (d: i64) : ([]i32, []i32, i64) =
  let is = map (\i -> (i * 7919) % (k + 3) - 1) (iota n)
  let vs = tabulate_2d n d (\i j -> i32.i64 ((i * 31 + j * 7) % 11))
  let dest = tabulate_2d k d (\b j -> i32.i64 (b * d + j))
  let h = reduce_by_index dest (map2 (+)) (replicate d 0) is vs
  in (h[0], h[k - 1], i64.sum (map i64.i32 (flatten h)))

-- Two destinations of rows, one map for both operators, and values built
-- by each element (in blocks that every task needs a copy of).
-- ==
-- entry: pairs
-- input { 300000i64 6i64 19i64 }
-- output { [2499994i32, 2500029i32, 2500064i32, 2499998i32, 2500033i32, 2499967i32, 2500002i32, 2499936i32, 2499971i32, 2500006i32, 2499940i32, 2499975i32, 2500010i32, 2500045i32, 2500080i32, 2500014i32, 2500049i32, 2499983i32, 2500018i32]
--          [2499961i32, 2499996i32, 2499930i32, 2499965i32, 2500000i32, 2500035i32, 2500070i32, 2500004i32, 2500039i32, 2499973i32, 2500008i32, 2500043i32, 2499977i32, 2500012i32, 2499946i32, 2499981i32, 2499915i32, 2499950i32, 2499985i32]
--          [1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32]
--          [1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32, 1008i32] }

entry pairs (n: i64) (k: i64) (d: i64) : ([]i32, []i32, []i32, []i32) =
  let is = map (\i -> (i * 13) % k) (iota n)
  let vs = tabulate_2d n d (\i j -> i32.i64 ((i * 31 + j * 7) % 101))
  let ws = tabulate_2d n d (\i j -> i32.i64 ((i * 17 + j) % 1009))
  let (s, m) = unzip (reduce_by_index (replicate k (replicate d 0, replicate d 0))
                        (\(a, b) (x, y) -> unzip (map4 (\a b x y -> (a + x, i32.max b y)) a b x y))
                        (replicate d 0, replicate d 0) is (zip vs ws))
  in (s[0], s[k - 1], m[1], m[k - 2])

-- A histogram whose function is long (over 16 statements): its tasks
-- update their four copies one element at a time, the copy j mod 4.
-- ==
-- entry: long_fn
-- input { 500001i64 300i64 } output { 6611i32 4953i32 1980187i32 }

entry long_fn (n: i64) (m: i64) : (i32, i32, i32) =
  let g (i: i64) =
    let x = i
    let x = (x * 3 + 1) % 100003
    let x = (x * 5 + 2) % 100003
    let x = (x * 7 + 3) % 100003
    let x = (x * 9 + 4) % 100003
    let x = (x * 11 + 5) % 100003
    let x = (x * 13 + 6) % 100003
    let x = (x * 15 + 7) % 100003
    let x = (x * 17 + 8) % 100003
    let x = (x * 19 + 9) % 100003
    in x
  let h = hist (+) 0i32 m (map (\i -> g i % (m + 3) - 1) (iota n)) (map (\i -> i32.i64 (i % 7 + g i % 3)) (iota n))
  in (h[0], h[m - 1], reduce (+) 0 h)
