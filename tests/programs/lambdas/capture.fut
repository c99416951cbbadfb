-- Lambdas capture variables from their environment.
-- ==
-- input { [0, 1, 2] 3 -1 }
-- output { [-1, 2, 5] }

def main (xs: []i32) (a: i32) (b: i32) : []i32 =
  let f = \x -> a * x + b
  in map f xs
