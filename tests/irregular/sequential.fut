-- Irregular arrays whose rows only a loop over the rows builds
-- (compiler/lower/irregular.c, build_loop): rows made by a scan whose
-- operator reads its row's own value. Each row's parallel operations run
-- in parallel, the rows one after another. (Rows made by concatenating
-- rows that can be read element by element, the first entry, no longer
-- are: tests/irregular/concat.fut; nor rows made by a loop whose array
-- changes size: tests/irregular/interchange.fut.)
-- ==
-- entry: concat
-- input { [2i64, 0i64, 3i64] }
-- output { [0i64, 1i64, 2i64, 0i64, 0i64, 1i64, 2i64, 3i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

-- ==
-- entry: captured
-- input { [2i64, 0i64, 3i64] }
-- output { [0i64, 1i64, 0i64, 1i64, 3i64] }

-- A failure inside a row's operations is raised although the rows' sizes
-- are computed without them.
-- ==
-- entry: captured_fails
-- input { [3i64, 1i64] }
-- error: division by zero

entry concat (ns: []i64) = flatten (map (\n -> iota n ++ [n]) ns)

entry captured (ns: []i64) = flatten (map (\n -> scan (\a b -> (a + b) % (n + 1)) 0 (iota n)) ns)

entry captured_fails (ns: []i64) = flatten (map (\n -> scan (\a b -> (a + b) % (n - 1)) 0 (iota n)) ns)
