-- Size parameters bound by array arguments and used as values.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { 2i64 3i64 6 }
-- input { empty([0][4]i32) }
-- output { 0i64 4i64 0 }

def main [n] [m] (a: [n][m]i32) : (i64, i64, i32) = (n, m, i32.i64 (n * m))
