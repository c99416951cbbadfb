-- Masked reductions that keep their if: the masked value is not the operator's neutral element (1 for +, 0 for *),
-- the index is not from iota, and a statement before the if may fail (a division by a variable: its error for the
-- masked elements must still be reported).
-- ==
-- structure { If 4 }
-- entry: not_neutral
-- input { [1i32, 2i32, 3i32] }
-- output { [3i32, 4i32, 6i32] [0i32, 0i32, 6i32] }
-- entry: not_iota
-- input { [2i64, 0i64, 1i64] [5i32, 6i32, 7i32] }
-- output { [6i32, 13i32, 18i32] }
-- entry: may_fail
-- input { [1i32, 2i32] [1i32, 1i32] }
-- output { [1i32, 3i32] }
-- input { [1i32, 2i32] [1i32, 0i32] }
-- error: division by zero

entry not_neutral [n] (xs: [n]i32) : ([n]i32, [n]i32) =
  unzip (map (\c -> (i32.sum (map2 (\j x -> if j <= c then x else 1) (iota n) xs),
                     i32.product (map2 (\j x -> if j <= c then x else 0) (iota n) xs)))
             (iota n))

entry not_iota [n] (js: [n]i64) (xs: [n]i32) : [n]i32 =
  map (\c -> i32.sum (map2 (\j x -> if j <= c then x else 0) js xs)) (iota n)

entry may_fail [n] (xs: [n]i32) (ds: [n]i32) : [n]i32 =
  map (\c -> i32.sum (map3 (\j x d -> let q = x / d in if j <= c then q else 0) (iota n) xs ds)) (iota n)
