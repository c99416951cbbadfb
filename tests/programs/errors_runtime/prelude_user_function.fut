-- An error in the user's function applied by a prelude function keeps
-- its own location (the division), not that of the call of map2.
-- ==
-- input { [10, 20] [2, 5] }
-- output { [5, 4] }
-- input { [10, 20] [2, 0] }
-- error: prelude_user_function\.fut:10:17: [Dd]ivision by zero

def main (xs: []i32) (ys: []i32) : []i32 =
  map2 (\x y -> x / y) xs ys
