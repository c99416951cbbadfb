-- flatten twice and unflatten twice.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [1, 2, 3, 4, 5, 6, 7, 8] [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }

def main [a] [b] [c] (x: [a][b][c]i32) : ([]i32, [a][b][c]i32) =
  let f = flatten (flatten x)
  let g = unflatten (unflatten (f :> [a * b * c]i32))
  in (f, g)
