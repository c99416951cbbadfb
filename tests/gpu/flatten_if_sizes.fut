-- Flattening (compiler/passes/flatten.c, split_ifs) an if choosing between
-- arrays of the element's length whose branches build, inside a map,
-- arrays of other lengths (n - 6, m - i, n - 3): both branches run for
-- every element, each size a branch computes made 0 for the elements that
-- do not take it (clamp_sizes) and each assertion, nested ones too,
-- holding for them (guarded_branch), so that a length that would be
-- negative, or as long as anything, for an element that takes the other
-- branch builds nothing and fails nothing; a map then selects each
-- element's branch. Nothing runs on the host. A length that is negative
-- for an element that takes its branch still fails (the C backend reports
-- the branch's own check, flattening its descriptor's).
-- ==
-- entry: main
-- structure gpu { Host 0 }
-- input { [3i64, 8i64, 0i64, 6i64] }
-- output { [21i64, 112i64, 0i64, 15i64] }
-- input { [1i64, 5i64, 2i64] }
-- output { [7i64, 35i64, 14i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

-- ==
-- entry: taken_negative
-- input { [7i64, 9i64] }
-- output { [42i64, 252i64] }
-- input { [3i64, 8i64] }
-- error: negative

-- ==
-- entry: both_nested
-- input { [3i64, 8i64, 0i64, 6i64] }
-- output { [0i64, 1582i64, 0i64, 470i64] }
-- input { [4i64, 3i64] }
-- output { [81i64, 0i64] }
-- input { [4i64, 1i64] }
-- error: (invalid|negative)

entry main (ns: []i64) : []i64 =
  map (\n -> let xs = if n > 5 then map (\i -> i + i64.sum (scan (+) 0 (replicate (n - 6) i))) (iota n)
                      else replicate n 7
             in i64.sum xs) ns

entry taken_negative (ns: []i64) : []i64 =
  map (\n -> let xs = if n > 2 then map (\i -> i + i64.sum (scan (+) 0 (replicate (n - 6) i))) (iota n)
                      else replicate n 7
             in i64.sum xs) ns

entry both_nested (ns: []i64) : []i64 =
  map (\n -> let m = n * 2
             let xs = if n % 2 == 0 then map (\i -> i * i64.sum (iota (m - i))) (iota n)
                      else map (\i -> i64.sum (map (+ i) (iota (n - 3)))) (iota n)
             in i64.sum xs) ns
