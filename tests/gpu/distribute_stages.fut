-- A map whose body runs three parallel stages over its row (a max
-- reduction; the differences, fused into an order-sensitive hash
-- reduction that also returns them; a map over the differences that
-- reads the hash) is distributed: one map per stage, each a segmented
-- operation over all rows (two SegReds, one writing the differences as
-- map outputs, and a SegMap over every element). Entry checksum hashes
-- each result row again (fused into the last stage, a third SegRed) for
-- rows long enough for several work-groups each, and for a work-group
-- each; main's small inputs take the one-work-item-per-row path. Its
-- rows are computed from their indices (fused into the first stage, a
-- segmented SegRed over no input array). The structure counts both
-- entry points. Expected values from a sequential reference
-- (Python, wrapping i64 arithmetic).
-- Each distributed host-level map also keeps its outer version (the map
-- as written, one work-item per row running the stages in order),
-- chosen at run time when the rows reach threshold
-- <entry>.suff_outer_par_N (issue 18's multi-versioning): a SegMap of one kernel per entry point, Threshold 2.
-- Each entry also has an intra-group version (a SegGroup: a work-group per
-- element, under its own threshold main.suff_intra_par_N).
-- ==
-- entry: main
-- structure gpu { Threshold 4 SegRed 5 SegMap 3 SegGroup 2 Kernel 10 }
-- input { [[3i64, 1i64, 4i64, 1i64, 5i64], [9i64, 2i64, 6i64, 5i64, 3i64], [0i64, 0i64, 0i64, 0i64, 0i64]] }
-- output { [[297i64, 303i64, 294i64, 303i64, 291i64], [550i64, 571i64, 559i64, 562i64, 568i64], [0i64, 0i64, 0i64, 0i64, 0i64]] }
-- input { [[7i64]] }
-- output { [[0i64]] }
-- input { empty([0][4]i64) }
-- output { empty([0][4]i64) }
-- input { empty([3][0]i64) }
-- output { empty([3][0]i64) }

def hash_step (h1: i64, p1: i64) (h2: i64, p2: i64) : (i64, i64) = (h1 * p2 + h2, p1 * p2)

def hash [m] (p: i64) (xs: [m]i64) : i64 = (reduce hash_step (0, 1) (map (\x -> (x, p)) xs)).0

def stages [m] (row: [m]i64) : [m]i64 =
  let mx = reduce i64.max i64.lowest row
  let ds = map (\v -> mx - v) row
  let h = hash 31 ds
  in map (\d -> d * 3 + h % 1000) ds

entry main [n][m] (xss: [n][m]i64) : [n][m]i64 = map stages xss

-- ==
-- entry: checksum
-- input { 3i64 100000i64 }
-- output { [-5825130617714120624i64, 4565069215903060736i64, -6268262913878149168i64] }
-- input { 2000i64 100i64 }
-- output @ data/distribute_stages_2000.out
-- input { 0i64 5i64 }
-- output { empty([0]i64) }

entry checksum (n: i64) (m: i64) : [n]i64 =
  let xss = tabulate_2d n m (\i j -> (i * 7919 + j * 104729 + i * j * 31) % 1000)
  in map (\row -> hash 37 (stages row)) xss
