-- Irregular rows chosen by an if inside the map, read by position
-- (compiler/lower/irregular.c, if_elem): each position computes its
-- element in a new if on the element's condition, from the branch's own
-- statements (an iota, a map of one, a concatenation, a replicate), so no
-- row is built and nothing runs element after element: the only loops are
-- the binary searches that find a position's row. Empty rows in either
-- branch; failures of the branch taken. (A branch whose map checks each
-- element of an array the row reads only in part keeps the map for its
-- checks: a map per element, which no kernel can allocate.)
-- ==
-- entry: chosen
-- structure gpu { Host 0 Loop 6 }
-- input { [3i64, 0i64, 4i64, 1i64] }
-- output { [0i64, 10i64, 20i64, 30i64, 0i64, 1i64, 2i64, 3i64, 0i64, 10i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

-- ==
-- entry: joined
-- input { [3i64, 0i64, 2i64, 5i64] }
-- output { [0i64, 1i64, 2i64, 3i64, 7i64, 7i64, 0i64, 1i64, 2i64, 3i64, 4i64, 5i64] }

-- A check of the branch taken fails, an empty row's too: the positions
-- read no element of an empty row, but the rows' sizes are computed with
-- their branches' checks.
-- ==
-- entry: failing
-- input { [5i64, 6i64, 7i64, 8i64] [3i64, 4i64] }
-- output { [0i64, 10i64, 20i64, 30i64, 7i64, 8i64, 9i64, 10i64] }
-- input { [5i64, 6i64] [3i64, 4i64] }
-- error: out of bounds
-- input { empty([0]i64) [0i64, 0i64] }
-- error: out of bounds

entry chosen (ns: []i64) = flatten (map (\n -> if n % 2 == 0 then iota n else map (* 10) (iota (n + 1))) ns)

entry joined (ns: []i64) = flatten (map (\n -> if n > 2 then iota n ++ [n] else replicate n 7) ns)

entry failing (xs: []i64) (ns: []i64) =
  flatten (map (\n -> if n % 2 == 0 then map (+ xs[n / 2]) (iota n) else map (* 10) (iota (n + 1))) ns)
