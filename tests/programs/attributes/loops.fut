-- #[unroll] and #[sequential] on loops and SOACs leave the results as
-- they are, in for, for-in and while loops and nested maps.
-- ==
-- input { [1, 2, 3] }
-- output { 6 [2, 4, 6] 8 [[1, 2, 3], [2, 4, 6], [3, 6, 9]] }

entry main (xs: []i32) =
  let s = #[unroll] loop acc = 0 for x in xs do acc + x
  let d = #[sequential] map (* 2) xs
  let w = #[unroll] loop i = 1 while i < 5 do i * 2
  let m = #[sequential_outer] map (\a -> #[sequential_inner] map (* a) xs) xs
  in (s, d, w, m)
