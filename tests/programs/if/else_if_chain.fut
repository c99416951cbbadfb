-- Chains of else-if.
-- ==
-- input { [95, 90, 85, 72, 60, 59, 0] }
-- output { [4, 4, 3, 2, 1, 0, 0] }

def grade (s: i32) : i32 =
  if s >= 90 then 4
  else if s >= 80 then 3
  else if s >= 70 then 2
  else if s >= 60 then 1
  else 0

def main (xs: []i32) : []i32 = map grade xs
