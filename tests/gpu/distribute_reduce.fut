-- A reduction over rows of a value that takes several parallel stages
-- per row (the row's maximum, then an order-sensitive hash of the
-- differences from it) is distributed like a map, and the reductions
-- (an order-sensitive hash of the row values and their sum, fused into
-- one) run after the stages over the values they stored: two segmented
-- SegReds and one SegRed (two kernels). Entry big generates rows long
-- enough for several work-groups each, a work-group each, and many rows
-- of 3 elements; its rows are computed from their indices in the first
-- stage (a segmented SegRed over no input array). The structure counts
-- both entry points. Expected values from a sequential reference
-- (Python, wrapping i64 arithmetic).
-- Each distributed host-level map also keeps its outer version (the map
-- as written, one work-item per row running the stages in order),
-- chosen at run time when the rows reach threshold
-- <entry>.suff_outer_par_N (issue 18's multi-versioning): a flat SegRed of two kernels per entry point, Threshold 2.
-- ==
-- entry: main
-- structure gpu { Threshold 2 SegRed 8 Kernel 12 }
-- input { [[3i64, 1i64, 4i64, 1i64, 5i64], [9i64, 2i64, 6i64, 5i64, 3i64], [0i64, 0i64, 0i64, 0i64, 0i64]] }
-- output { 3315689721i64 2178841i64 }
-- input { [[7i64]] }
-- output { 0i64 0i64 }
-- input { empty([0][4]i64) }
-- output { 0i64 0i64 }

def hash_step (h1: i64, p1: i64) (h2: i64, p2: i64) : (i64, i64) = (h1 * p2 + h2, p1 * p2)

def hash [m] (p: i64) (xs: [m]i64) : i64 = (reduce hash_step (0, 1) (map (\x -> (x, p)) xs)).0

def row_value [m] (row: [m]i64) : i64 =
  let mx = reduce i64.max i64.lowest row
  in hash 31 (map (\v -> mx - v) row)

def total [n][m] (xss: [n][m]i64) : (i64, i64) =
  let vs = map row_value xss
  in (hash 41 vs, i64.sum vs)

entry main [n][m] (xss: [n][m]i64) : (i64, i64) = total xss

-- ==
-- entry: big
-- input { 3i64 100000i64 }
-- output { -5893422549782889376i64 4654324236828989792i64 }
-- input { 2000i64 100i64 }
-- output { -848489910927170528i64 -2911357312456531808i64 }
-- input { 100000i64 3i64 }
-- output { 1504061087255386252i64 24888801900i64 }

entry big (n: i64) (m: i64) : (i64, i64) =
  total (tabulate_2d n m (\i j -> (i * 7919 + j * 104729 + i * j * 31) % 1000))
