-- Integer modulo by zero (%, // and %%) is a run-time error.
-- ==
-- input { 7i64 3i64 0 }
-- output { 1i64 }
-- input { 7i64 0i64 0 }
-- error: [Dd]ivision by zero
-- input { 7i64 0i64 1 }
-- error: [Dd]ivision by zero
-- input { 7i64 0i64 2 }
-- error: [Dd]ivision by zero

def main (x: i64) (y: i64) (k: i32) : i64 =
  if k == 0 then x % y else if k == 1 then x // y else x %% y
