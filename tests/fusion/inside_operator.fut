-- Fusion inside operators: a reduction operator (and a scan's, and a
-- histogram's) that maps over a small array and reduces it (field
-- arithmetic on limbs, as poseidon's library does) gets the map fused
-- into the reduction: one Screma per operator, not two, and no array of
-- the mapped values made at each application (7 Scremas before).
-- ==
-- structure { Screma 4 }
-- input { [1i64, 2i64, 3i64, 4i64] }
-- output { 10i64 [1i64, 4i64, 9i64, 16i64] [3i64, 5i64, 2i64] }

-- a + b, through an array of limbs
def add (a: i64) (b: i64) : i64 = i64.sum (map (\i -> if i == 0 then a + b else 0) (iota 4))

def main (xs: []i64) : (i64, []i64, []i64) =
  ( reduce add 0 xs
  , scan (\a b -> i64.maximum (map (\i -> if i == 0 then a else b) (iota 2))) i64.lowest (map (\x -> x * x) xs)
  , hist add 0 3 (map (% 3) xs) xs
  )
