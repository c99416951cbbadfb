-- Sections of paths of fields and brackets: (.[i].f) indexes then
-- projects, (.a[1:3]) projects then slices, (.a.b) projects twice.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }
-- output { 1 5 [[2, 3], [5, 6]] [7, 8] }

entry main (xs: []i32) (ys: []i32) : (i32, i32, [][]i32, []i32) =
  let rs = map2 (\x y -> {f = x, g = y}) xs ys
  let ts = map (\a -> {a}) [xs, ys]
  let ns = map (\x -> {a = {b = x + 6}}) [1, 2]
  in ((.[0].f) rs, (.[1].g) rs, map (.a[1:3]) ts, map (.a.b) ns)
