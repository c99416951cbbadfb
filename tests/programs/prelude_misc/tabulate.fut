-- tabulate, tabulate_2d and tabulate_3d.
-- ==
-- input { 3i64 }
-- output { [0i64, 1i64, 4i64] [[0i64, 1i64], [10i64, 11i64], [20i64, 21i64]] [[[0i64, 1i64],
--    [10i64, 11i64], [20i64, 21i64]], [[100i64, 101i64], [110i64, 111i64], [120i64, 121i64]]] }

def main (n: i64) : ([n]i64, [n][2]i64, [2][n][2]i64) =
  (tabulate n (\i -> i * i),
   tabulate_2d n 2 (\i j -> i * 10 + j),
   tabulate_3d 2 n 2 (\i j k -> i * 100 + j * 10 + k))
