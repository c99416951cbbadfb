-- A map of a map of several stages (the same three as distribute_stages,
-- over the rows of a batch of matrices): the inner map is distributed
-- first, which makes the outer map's body the inner map's stages, so the
-- outer map is distributed too and each stage becomes a nest of two maps
-- around a row operation: segmented SegReds whose segments are the rows
-- of all matrices (the second also writing the differences), and a
-- SegMap over every element. Entry checksum hashes the result rows again
-- (fused into the last stage, a third segmented SegRed) for rows long
-- enough for several work-groups each and for a work-group each; its
-- rows are computed from their indices in the first stage (a segmented
-- SegRed over no input array). The structure counts both entry
-- points. Expected values from a sequential reference (Python).
-- Each distributed host-level map also keeps its outer version (the map
-- as written, one work-item per row running the stages in order),
-- chosen at run time when the rows reach threshold
-- <entry>.suff_outer_par_N (issue 18's multi-versioning): a SegMap of one kernel per entry point over both map levels, Threshold 2.
-- ==
-- entry: main
-- structure gpu { Threshold 2 SegMap 3 SegRed 5 Kernel 8 }
-- input { [[[3i64, 1i64, 4i64, 1i64, 5i64], [9i64, 2i64, 6i64, 5i64, 3i64]], [[0i64, 0i64, 0i64, 0i64, 0i64], [1i64, 2i64, 3i64, 4i64, 5i64]]] }
-- output { [[[297i64, 303i64, 294i64, 303i64, 291i64], [550i64, 571i64, 559i64, 562i64, 568i64]], [[0i64, 0i64, 0i64, 0i64, 0i64], [422i64, 419i64, 416i64, 413i64, 410i64]]] }
-- input { empty([0][2][3]i64) }
-- output { empty([0][2][3]i64) }
-- input { empty([2][0][3]i64) }
-- output { empty([2][0][3]i64) }

def hash_step (h1: i64, p1: i64) (h2: i64, p2: i64) : (i64, i64) = (h1 * p2 + h2, p1 * p2)

def stages [m] (row: [m]i64) : [m]i64 =
  let mx = reduce i64.max i64.lowest row
  let ds = map (\v -> mx - v) row
  let h = (reduce hash_step (0, 1) (map (\d -> (d, 31)) ds)).0
  in map (\d -> d * 3 + h % 1000) ds

def main [k][n][m] (xsss: [k][n][m]i64) : [k][n][m]i64 = map (map stages) xsss

-- ==
-- entry: checksum
-- input { 2i64 3i64 50000i64 }
-- output { [[-8513870099049318360i64, 7204353947295742592i64, -7264456544120795416i64], [-4281073354306238200i64, -5380246762745895680i64, -5521054775788149176i64]] }
-- input { 4i64 50i64 100i64 }
-- output @ data/distribute_nested_4x50.out
-- input { 0i64 3i64 5i64 }
-- output { empty([0][3]i64) }

entry checksum (k: i64) (n: i64) (m: i64) : [k][n]i64 =
  let xsss = tabulate_3d k n m (\b i j -> (b * 31337 + i * 7919 + j * 104729 + i * j * 31) % 1000)
  in map (map (\row -> (reduce hash_step (0, 1) (map (\x -> (x, 37)) (stages row))).0)) xsss
