-- Prefix products modulo a prime, in i64.
-- ==
-- input { [3i64, 5i64, 7i64, 11i64, 13i64] 1000003i64 }
-- output { [3i64, 15i64, 105i64, 1155i64, 15015i64] }
-- input { [123456i64, 654321i64, 999999i64] 1000003i64 }
-- output { [123456i64, 611039i64, 555853i64] }

def main (xs: []i64) (p: i64) : []i64 = scan (\a b -> (a * b) % p) 1 (map (% p) xs)
