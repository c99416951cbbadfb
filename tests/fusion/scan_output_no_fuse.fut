-- Negative (vertical): a scan result is not available row by row inside the Screma, so a map over it stays apart.
-- ==
-- structure { Screma 2 Scan 1 }
-- input { [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { [2i64, 6i64, 12i64, 20i64, 30i64] }

def main (xs: []i64) : []i64 = map (\x -> x * 2) (scan (+) 0 xs)
