-- An if on a constant condition is replaced by its branch.
-- ==
-- structure { If 0 BinOp 1 }
-- input { 10 }
-- output { 11 }

def main (x: i32) : i32 =
  if 1 + 1 == 2 then x + 1 else x - 1
