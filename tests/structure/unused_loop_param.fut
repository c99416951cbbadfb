-- The second loop parameter is never used after the loop and feeds only
-- itself: it is removed with its computation.
-- ==
-- structure { Loop 1 BinOp 1 }
-- input { 5 }
-- output { 10 }

def main (n: i32) : i32 =
  let (x, _) = loop (a, b) = (0, 1) for i < n do (a + i, b * 3 + a)
  in x
