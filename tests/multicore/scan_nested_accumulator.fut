-- A scan of array rows whose input is a map of scans: the inner scan's
-- accumulator is a per-element block of the outer scan's input map, and
-- the parallel loop of the inner scan's operator gave each task a copy of
-- it (uninitialised, and dropped after the task), so every result was
-- lost (Futhark's tests/soacs/scan6.fut gave zeros). A task copies only
-- the blocks of arrays it makes itself. Results against the C backend's.
-- ==
-- random input { [1][10][100]i32 } auto output
-- random input { [100][10][1]i32 } auto output
-- random input { [20][10][70]i32 } auto output

def vecadd [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 =
  loop res = replicate n 0 for i < n do res with [i] = xs[i] + ys[i]

def main [n] [m] [k] (xsss: [n][m][k]i32) =
  scan (map2 vecadd) (replicate m (replicate k 0)) (map (scan (map2 (+)) (replicate k 0)) xsss)
