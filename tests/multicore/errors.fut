-- A failure inside one task of a parallel loop fails the whole run with
-- the failing element's message; the other tasks cannot hide it.
-- ==
-- input { 1000000i64 1000000i64 } output { 499999500000i64 }
-- input { 1000000i64 999999i64 }
-- error: [Oo]ut of bounds
-- input { 1000000i64 3i64 }
-- error: [Oo]ut of bounds

entry main (n: i64) (k: i64) : i64 =
  let xs = iota k
  in reduce (+) 0 (map (\i -> xs[i]) (iota n))

-- ==
-- entry: scatter_big
-- input { 1000000i64 } output { 499999500000i64 1i64 }

entry scatter_big (n: i64) : (i64, i64) =
  let dest = replicate n 0i64
  let r = scatter dest (map (\i -> (i * 7) % n) (iota n)) (iota n)
  in (reduce (+) 0 r, r[7])
