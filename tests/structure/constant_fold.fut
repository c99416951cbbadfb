-- Arithmetic on constants is folded away; only x + 1 remains.
-- ==
-- structure { BinOp 1 Conv 0 }
-- input { 41 }
-- output { 42 }

def main (x: i32) : i32 =
  let a = 2 * 3 - 6
  let b = i32.i64 (10i64 / 5i64) - 1
  in x + a + b
