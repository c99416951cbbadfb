-- Algebraic identities: x*1, x+0, y-y, x/1, !!b and b && true all vanish.
-- ==
-- structure { BinOp 0 UnOp 0 If 0 }
-- input { 7 3 true }
-- output { 7 true }
-- input { -5 100 false }
-- output { -5 false }

def main (x: i32) (y: i32) (b: bool) : (i32, bool) =
  ((x * 1 + 0 + (y - y)) / 1, !(!b) && true)
