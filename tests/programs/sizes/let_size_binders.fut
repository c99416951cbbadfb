-- let [n] (xs: [n]t) = e names sizes of e's value: the unknown size of a
-- filter's result, both sizes of a nested array, a size the value already
-- had, and a size inside a tuple pattern. The names are values (i64) and
-- sizes in later types.
-- ==
-- input { [3, -1, 4, -1, 5] }
-- output { 3i64 [3, 4, 5] 6i64 [[3, 4], [4, 5], [5, 6]] 5i64 [0i64, 1i64, 2i64] }
-- input { empty([0]i32) }
-- output { 0i64 empty([0]i32) 0i64 empty([0][2]i32) 0i64 empty([0]i64) }

def pairs [m] (ys: [m]i32) : [m][2]i32 = map (\y -> [y, y + 1]) ys

entry main (xs: []i32) =
  let [n] (pos: [n]i32) = filter (> 0) xs
  let [a][b] (ps: [a][b]i32) = pairs pos
  let [k] (all: [k]i32, _: i32) = (xs, 0)
  let idx : [n]i64 = iota n
  in (n, pos, a * b, ps, k, idx)
