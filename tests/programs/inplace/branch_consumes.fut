-- The value of an if (or match) does not alias what one of its branches
-- consumed: after `let xs = if c then (let xs[0] = ... in xs) else xs`
-- the new xs may be used and updated again, as in Futhark
-- (futhark-benchmarks' knn-by-kdtree does this in its loop).
-- ==
-- input { [1, 2, 3] true }
-- output { [10, 20, 3] }
-- input { [1, 2, 3] false }
-- output { [1, 20, 3] }

def main (xs: *[]i32) (c: bool) : []i32 =
  let xs = if c then (let xs[0] = 10 in xs) else xs
  let xs = match c
           case true -> xs with [1] = 20
           case false -> xs
  in if c then xs else xs with [1] = 20
