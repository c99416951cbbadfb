-- // and %% round towards zero, like C; the sign of %% follows the
-- dividend.
-- ==
-- input { [7i64, -7i64, 7i64, -7i64, 0i64, 1i64, -1i64] [2i64, 2i64, -2i64, -2i64, 3i64, 5i64,
--    5i64] }
-- output { [3i64, -3i64, -3i64, 3i64, 0i64, 0i64, 0i64] [1i64, -1i64, 1i64, -1i64, 0i64, 1i64,
--    -1i64] }

def main [n] (xs: [n]i64) (ys: [n]i64) : ([n]i64, [n]i64) =
  (map2 (//) xs ys, map2 (%%) xs ys)
