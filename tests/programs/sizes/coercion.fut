-- Size coercion with :> makes sizes agree.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { [4, 10, 18] }

def main [n] (xs: [n]i32) (ys: []i32) : [n]i32 =
  let ys' = ys :> [n]i32
  in map2 (*) xs ys'
