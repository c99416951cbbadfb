-- A loop parameter returned unchanged is its initial value: k becomes c.
-- ==
-- structure { Loop 1 BinOp 1 }
-- input { 4 5 }
-- output { 20 5 }

def main (n: i32) (c: i32) : (i32, i32) =
  loop (acc, k) = (0, c) for _i < n do (acc + k, k)
