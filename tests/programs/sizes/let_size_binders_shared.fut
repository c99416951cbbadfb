-- One size binder used twice in a pattern names a size shared by both
-- components, so zip accepts them without a coercion.
-- ==
-- input { 4i64 }
-- output { [0i64, 1i64, 2i64, 3i64] [0i64, 2i64, 4i64, 6i64] 4i64 }

entry main (m: i64) =
  let [n] (xs: [n]i64, ys: [n]i64) = (iota m, map (* 2) (iota m))
  let (a, b) = unzip (zip xs ys)
  in (a, b, n)
