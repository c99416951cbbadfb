-- The size parameter n of the local function f is only in the type of the
-- function it returns; the application of that function to xs, an array of
-- m elements, determines it.
-- ==
-- input { 4i64 }
-- output { 36 }
-- input { 0i64 }
-- output { 0 }

def main (m: i64) =
  let f [n] (k: i64) : ([k]i32, [n]i32 -> i32) = (replicate k (i32.i64 (n + 5)), i32.sum)
  let (xs, g) = f m
  in g xs
