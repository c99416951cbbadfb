-- Loop with a tuple of state variables.
-- ==
-- input { 0 }
-- output { 0i64 }
-- input { 1 }
-- output { 1i64 }
-- input { 2 }
-- output { 1i64 }
-- input { 10 }
-- output { 55i64 }
-- input { 90 }
-- output { 2880067194370816120i64 }

def main (n: i32) : i64 =
  let (a, _) = loop (a, b) = (0i64, 1i64) for _i < n do (b, a + b)
  in a
