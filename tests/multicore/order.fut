-- Parallel reductions and scans whose operators are associative but not
-- commutative: the tasks' partial results must be combined in order (the
-- multicore backend splits a SOAC's iterations into chunks, one task
-- each). Also empty inputs, where no task has an iteration.
-- ==
-- entry: last_marked
-- input { 1000000i64 } output { 999991i64 }
-- input { 0i64 } output { -1i64 }
-- input { 5i64 } output { 0i64 }

entry last_marked (n: i64) : i64 =
  reduce (\a b -> if b >= 0 then b else a) (-1) (map (\i -> if i % 17 == 0 then i else -1) (iota n))

-- Composition of affine maps x -> a*x + b, in wrapping i32 arithmetic.
-- ==
-- entry: compose
-- input { 1000000i64 } output { 0i32 200545847i32 }
-- input { 0i64 } output { 1i32 0i32 }

entry compose (n: i64) : (i32, i32) =
  let fs = map (\i -> (i32.i64 (i % 7) + 1, i32.i64 (i % 13))) (iota n)
  in reduce (\(a, b) (c, d) -> (a * c, b * c + d)) (1, 0) fs

-- The same as a scan, with a map output and a reduction alongside.
-- ==
-- entry: scan_compose
-- input { 1000000i64 } output { 200545847i32 200545847i32 -1908989516i32 -1921336587i32 -393616510i32 }
-- input { 1i64 } output { 0i32 0i32 0i32 1i32 0i32 }

entry scan_compose (n: i64) : (i32, i32, i32, i32, i32) =
  let fs = map (\i -> (i32.i64 (i % 7) + 1, i32.i64 (i % 13))) (iota n)
  let (as, bs) = unzip (scan (\(a, b) (c, d) -> (a * c, b * c + d)) (1, 0) fs)
  let sq = map (\b -> b * b) bs
  in (bs[n / 3], bs[n - 1], reduce (+) 0 bs, reduce (^) 0 as, reduce (+) 0 sq)

-- An exclusive-style scan of i64 sums over an empty and a long input.
-- ==
-- entry: sums
-- input { 0i64 } output { 0i64 0i64 }
-- input { 3000001i64 } output { 3000001i64 2247502248000000i64 }

entry sums (n: i64) : (i64, i64) =
  let s = scan (+) 0 (map (\i -> i % 1000) (iota n))
  in (length s, reduce (+) 0 s)
