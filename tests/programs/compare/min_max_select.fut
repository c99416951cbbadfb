-- Comparisons used to select values.
-- ==
-- input { [-5, 0, 5, 10, 15] }
-- output { [0, 0, 5, 10, 10] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }

def clamp (lo: i32) (hi: i32) (x: i32) : i32 =
  if x < lo then lo else if x > hi then hi else x

def main (xs: []i32) : []i32 = map (clamp 0 10) xs
