-- == and != on arrays: the same shape and equal elements (as Futhark
-- defines them; floats compare as floats, so NaN is not equal to
-- itself), also for arrays inside tuples and records; the elements are
-- compared only when the shapes agree.
-- ==
-- input { [[1, 2], [3, 4]] [[1, 2], [3, 4]] }
-- output { true false true }
-- input { [[1, 2], [3, 4]] [[1, 2], [3, 5]] }
-- output { false true false }
-- input { empty([0][2]i32) empty([0][2]i32) }
-- output { true false true }

entry main [n] [m] (xs: [n][m]i32) (ys: [n][m]i32) =
  (xs == ys, xs != ys, {a = xs, b = [1f32]} == {a = ys, b = [1f32]})

-- ==
-- entry: shapes
-- input { [1, 2, 3] [1, 2] }
-- output { false }
-- input { [1, 2] [1, 2] }
-- output { true }

entry shapes (xs: []i32) (ys: []i32) = length xs == length ys && xs == (ys :> [length xs]i32) || false

-- ==
-- entry: nan
-- input { [1f32] } output { false true }

entry nan (xs: []f32) = (map (\_ -> f32.nan) xs == map (\_ -> f32.nan) xs, xs == xs)
