-- Arrays each element of a parallel map uses for itself (the memory pass
-- allocates them once, outside the map): every task gets its own, so
-- tasks running at once do not share them.
-- ==
-- input { 1000i64 100i64 } output { 50672689800f64 }
-- input { 0i64 100i64 } output { 0f64 }

entry main (n: i64) (m: i64) : f64 =
  let rows = map (\i -> map (\j -> f64.i64 ((i * 31 + j * 17) % 101)) (iota m)) (iota n)
  let r = map (\r -> let t = map (* 2) r
                     let s = scan (+) 0 t
                     in reduce (+) 0 (map2 (*) s t)) rows
  in reduce (+) 0 r
