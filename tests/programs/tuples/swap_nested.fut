-- Nested tuples and swapping.
-- ==
-- input { 1 2 3 }
-- output { 2 3 1 }

def swap (a: i32, b: i32) : (i32, i32) = (b, a)

def main (x: i32) (y: i32) (z: i32) : (i32, i32, i32) =
  let ((p, q), r) = (swap (x, y), z)
  let (s, t) = swap (q, r)
  in (p, s, t)
