-- Reduction on tuples computing sum and count of positives.
-- ==
-- input { [1, -2, 3, 0, 5] }
-- output { 9 3 }

def main (xs: []i32) : (i32, i32) =
  reduce (\(s1, c1) (s2, c2) -> (s1 + s2, c1 + c2)) (0, 0)
         (map (\x -> if x > 0 then (x, 1) else (0, 0)) xs)
