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

-- A scan's tasks wait for the running totals of the tasks before them: a
-- task that fails (here in the first task's chunk, in the second's, in
-- the last one's) must not leave the later ones waiting.
-- ==
-- entry: scan_fails
-- input { 1000000i64 -1i64 } output { 125000250000i64 499999500000i64 }
-- input { 1000000i64 3i64 }
-- error: [Oo]ut of bounds
-- input { 1000000i64 20000i64 }
-- error: [Oo]ut of bounds
-- input { 1000000i64 999999i64 }
-- error: [Oo]ut of bounds

entry scan_fails (n: i64) (bad: i64) : (i64, i64) =
  let xs = iota n
  let ys = scan (+) 0 (map (\i -> xs[if i == bad then n else i]) (iota n))
  in (ys[n / 2], ys[n - 1])
