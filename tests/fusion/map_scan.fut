-- Vertical: map into scan is one Screma with a scan.
-- ==
-- structure { Screma 1 Scan 1 }
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { [1i64, 5i64, 14i64, 30i64, 55i64] }
-- input { [-3i64, 0i64, 7i64, 10i64, -8i64, 2i64] }
-- output { [9i64, 9i64, 58i64, 158i64, 222i64, 226i64] }

def main (xs: []i64) : []i64 = scan (+) 0 (map (\x -> x * x) xs)
