-- A sequential prefix sum written with in-place updates in a loop.
-- ==
-- input { [1, 2, 3, 4] }
-- output { [1, 3, 6, 10] }
-- input { [5] }
-- output { [5] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }

def main [n] (xs: [n]i32) : [n]i32 =
  let out = copy xs
  in loop out for i < n - 1 do
       out with [i + 1] = out[i] + xs[i + 1]
