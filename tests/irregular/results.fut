-- Maps whose results are irregular in several ways: several results of
-- one map (irregular, and regular beside them), rows of rank two (one or
-- both sizes varying), rows whose size depends on their data (filter), and
-- a map over an irregular array whose results are irregular again.
-- ==
-- entry: pairs
-- input { [3i64, 0i64, 2i64] }
-- output { [0i64, 1i64, 2i64, 0i64, 1i64] [1.5f32, 1.5f32, 1.5f32, 1.5f32, 1.5f32] [6i64, 0i64, 4i64] [[3i64, 1i64], [0i64, 1i64], [2i64, 1i64]] }

-- ==
-- entry: blocks
-- input { [2i64, 1i64] }
-- output { [[0i64, 2i64], [1i64, 2i64], [0i64, 2i64]] }

-- ==
-- entry: squares
-- input { [2i64, 0i64, 1i64] }
-- output { [0i64, 1i64, 0i64, 1i64, 0i64] 3i64 [0i64, 1i64] }

-- ==
-- entry: filtered
-- input { [5i64, 2i64, 7i64] }
-- output { [3i64, 4i64, 3i64, 4i64, 5i64, 6i64] [2i64, 0i64, 4i64] }

-- ==
-- entry: again
-- input { [3i64, 1i64] }
-- output { [1i64, 2i64, 3i64, 1i64] [3i64, 1i64] }

-- ==
-- entry: long
-- input { [100000i64, 1i64, 0i64, 2i64] }
-- output { 5000050004i64 100003i64 }

entry pairs (ns: []i64) =
  let (a, b, c, d) = unzip4 (map (\n -> (iota n, replicate n 1.5f32, n * 2, [n, 1])) ns)
  in (flatten a, flatten b, c, d)

entry blocks (ns: []i64) = flatten (map (\n -> map (\i -> [i, 2]) (iota n)) ns)

entry squares (ns: []i64) =
  let sq = map (\n -> replicate n (iota n)) ns
  in (flatten (map flatten sq), length sq, sq[0, 1])

entry filtered (ns: []i64) =
  let fs = map (\n -> filter (> 2) (iota n)) ns
  in (flatten fs, map length fs)

entry again (ns: []i64) =
  let inc = map (\r -> map (+ 1) r) (map (\n -> iota n) ns)
  in (flatten inc, map length inc)

-- One long row among short ones.
entry long (ns: []i64) =
  let xs = flatten (map (\n -> map (+ 1) (iota n)) ns)
  in (reduce (+) 0 xs, length xs)
