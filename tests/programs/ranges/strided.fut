-- Strided ranges a..b..<c and a..b...c.
-- ==
-- input { 10i64 }
-- output { [0i64, 2i64, 4i64, 6i64, 8i64] [1i64, 4i64, 7i64, 10i64] }
-- input { 9i64 }
-- output { [0i64, 2i64, 4i64, 6i64, 8i64] [1i64, 4i64, 7i64] }

def main (n: i64) : ([]i64, []i64) = (0..2..<n, 1..4...n)
