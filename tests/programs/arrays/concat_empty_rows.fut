-- Concatenating arrays of many empty rows copies nothing: the copy's loop
-- over 10^10 rows of no elements is skipped, not run (at -O0 it took
-- seconds per 10^9 rows).
-- ==
-- input { 5000000000i64 0i64 }
-- output { empty([10000000000][0]i32) }
-- input { 2i64 3i64 }
-- output { [[1i32, 1i32, 1i32], [1i32, 1i32, 1i32], [2i32, 2i32, 2i32], [2i32, 2i32, 2i32]] }

def main (n: i64) (m: i64) : [][]i32 =
  let a = replicate n (replicate m 1i32)
  let b = replicate n (replicate m 2i32)
  in concat a b
