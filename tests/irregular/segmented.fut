-- Irregular arrays whose rows are scans and filters, built without a loop
-- over the rows (compiler/lower/irregular.c): a segmented scan of all the
-- rows' elements at once, and one filter of all the rows' elements, whose
-- rows' sizes are a segmented reduction of the flags. Empty rows, one
-- long row among short ones, an operator on tuples, a predicate that
-- reads its row's own value, and rows of an irregular array. Nothing runs
-- on the host, and no loop runs over the rows (the loops are the binary
-- searches that find a position's row, two for each map over positions
-- that needs the row; a scan's segment flags are the rows' heads,
-- scattered at their offsets, and need no search).
-- ==
-- entry: scans
-- input { [3i64, 0i64, 4i64, 1i64] }
-- output { [0i64, 2i64, 6i64, 0i64, 2i64, 6i64, 12i64, 0i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }
-- input { [0i64, 0i64] }
-- output { empty([0]i64) }
-- structure gpu { Host 0 Loop 16 }

-- ==
-- entry: pairs
-- input { [4i64, 0i64, 3i64] }
-- output { [0i64, 1i64, 3i64, 6i64, 0i64, 1i64, 3i64] [0i64, 2i64, 4i64, 4i64, 0i64, 2i64, 4i64] }

-- ==
-- entry: filters
-- input { [7i64, 0i64, 2i64, 10i64] }
-- output { [0i64, 3i64, 6i64, 0i64, 0i64, 3i64, 6i64, 9i64] [3i64, 0i64, 1i64, 4i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) empty([0]i64) }

-- ==
-- entry: own
-- input { [5i64, 1i64, 0i64, 6i64] }
-- output { [3i64, 4i64, 3i64, 4i64, 5i64] [2i64, 0i64, 0i64, 3i64] }

-- ==
-- entry: rows
-- input { [3i64, 0i64, 2i64, 4i64] [1i64, -2i64, 3i64, 0i64, 5i64, -1i64, -6i64, 7i64, 2i64] }
-- output { [1i64, 3i64, 5i64, 7i64, 2i64] [1i64, -1i64, 2i64, 0i64, 5i64, -1i64, -7i64, 0i64, 2i64] }

-- ==
-- entry: long
-- input { 1000000i64 }
-- output { 249999500002i64 500003i64 166666666666500005i64 [2i64, 500000i64, 0i64, 1i64] }
-- input { 5i64 }
-- output { 8i64 6i64 25i64 [2i64, 3i64, 0i64, 1i64] }

entry scans (ns: []i64) = flatten (map (\n -> scan (+) 0 (map (* 2) (iota n))) ns)

entry pairs (ns: []i64) =
  let rows = map (\n -> scan (\(a, b) (c, d) -> (a + c, i64.max b d)) (0, i64.lowest)
                             (zip (iota n) (map (\i -> (i * 7) % 5) (iota n))))
                 ns
  let (a, b) = unzip (map unzip rows)
  in (flatten a, flatten b)

entry filters (ns: []i64) =
  let rows = map (\n -> filter (\x -> x % 3 == 0) (iota n)) ns
  in (flatten rows, map length rows)

entry own (ns: []i64) =
  let rows = map (\n -> filter (\x -> x * 2 >= n) (iota n)) ns
  in (flatten rows, map length rows)

entry rows [n] [m] (sizes: [n]i64) (xs: [m]i64) =
  let irr = unflatten_irregular sizes xs
  in (flatten (map (\r -> filter (> 0) r) irr), flatten (map (\r -> scan (+) 0 r) irr))

entry long (n: i64) =
  let ns = [3, n, 0, 2]
  let f = map (\k -> filter (\x -> x % 2 == 0) (iota k)) ns
  let s = map (\k -> scan (+) 0 (iota k)) ns
  in (i64.sum (flatten f), length (flatten f), i64.sum (flatten s), map length f)
