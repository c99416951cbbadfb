-- A size parameter that only the result of a function argument has as a
-- size is known where the function is applied, and can be used as a value.
-- ==
-- input { 4i64 }
-- output { 4i64 8i64 4 }

def count [n] (_: i32 -> [n]i32) : i64 = n

def apply_sum [n] (f: i32 -> [n]i32) (x: i32) : i32 = i32.sum (f x) + i32.i64 n

def main (k: i64) =
  (count (replicate k), count (\(x: i32) -> replicate (2 * k) x), apply_sum (\x -> [x, x]) 1)
