-- A map of a map of several stages (the same three as distribute_stages,
-- over the rows of a batch of matrices): the inner map is distributed
-- first, which makes the outer map's body the inner map's stages, so the
-- outer map is distributed too and each stage becomes a nest of two maps
-- around a row operation: SegMaps over the batch and its rows (the
-- reductions run along each row in one work-item; the last stage's map
-- joins the space: three levels).
-- ==
-- structure gpu { SegMap 3 Kernel 3 }
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
