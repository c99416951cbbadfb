-- A lambda as the last argument of an application needs no parentheses;
-- its body extends as far right as it can (here over several lines).
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { [5, 7, 9] [4, 9, 16] }

entry main (xs: []i32) (ys: []i32) : ([]i32, []i32) =
  let s = map2 \x y -> x + y
  let u = map \x ->
            let y = x + 1
            in y * y
  in (s xs ys, u xs)
