-- Wildcard patterns discard components.
-- ==
-- input { 17 5 }
-- output { 302 }
-- input { -17 5 }
-- output { -397 }

def divmod (x: i32) (y: i32) : (i32, i32) = (x / y, x % y)

def main (x: i32) (y: i32) : i32 =
  let (_, r) = divmod x y
  let (q, _) = divmod x y
  in q * 100 + r
