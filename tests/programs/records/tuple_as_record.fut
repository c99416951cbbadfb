-- Tuples are records with numeric field names.
-- ==
-- input { 1 2 }
-- output { 2 1 }

def main (x: i32) (y: i32) : (i32, i32) =
  let t : (i32, i32) = {0 = x, 1 = y}
  let (a, b) = t
  in (b, a)
