-- let with tuple patterns, including nested tuples.
-- ==
-- input { 5 3 }
-- output { 16 4 10 }
-- input { -1 4 }
-- output { 6 -10 -2 }

def main (x: i32) (y: i32) : (i32, i32, i32) =
  let (a, b) = (x + y, x - y)
  let ((c, d), e) = ((a * 2, b * 2), a + b)
  in (c, d, e)
