-- |> binds looser than arithmetic and comparison.
-- ==
-- input { 3 }
-- output { 8 true }
-- input { 2 }
-- output { 6 false }

def main (x: i32) : (i32, bool) = (x + 1 |> (* 2), x * 2 |> (\y -> y > 5))
