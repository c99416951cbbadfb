-- A run-time error raised in the prelude's code (map2 zips its arguments)
-- is reported at the user's call of the prelude function, not in the
-- prelude.
-- ==
-- input { [1, 2, 3] [10, 20, 30] }
-- output { [11, 22, 33] }
-- input { [1, 2, 3] [10, 20] }
-- error: prelude_call_site\.fut:11:3: Cannot zip arrays of sizes 3 and 2

def main (xs: []i32) (ys: []i32) : []i32 =
  map2 (+) xs ys
