-- xs[i+1] for i in iota n is not provably in bounds: the check stays and fires.
-- ==
-- structure { Assert 1 }
-- input { [1, 2, 3] }
-- error: [Oo]ut of bounds|[Ii]ndex

def main [n] (xs: [n]i32) : [n]i32 =
  map (\i -> xs[i + 1]) (iota n)
