-- flatten and unflatten.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [1, 2, 3, 4, 5, 6] [[1, 2], [3, 4], [5, 6]] }

def main [n] [m] (a: [n][m]i32) : ([]i32, [m][n]i32) =
  let f = flatten a
  let back = unflatten (f :> [m * n]i32)
  in (f, back)
