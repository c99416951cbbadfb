-- a*b is invariant in both loops: hoisted out of each, then computed once.
-- ==
-- structure { Loop 2 BinOp 3 }
-- input { 2 3 4 }
-- output { 24 1296 }

def main (a: i32) (b: i32) (n: i32) : (i32, i32) =
  let x = loop acc = 0 for _i < n do acc + a * b
  let y = loop acc = 1 for _i < n do acc * (a * b)
  in (x, y)
