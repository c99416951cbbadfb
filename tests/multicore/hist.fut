-- Parallel histograms: every task fills buckets of its own, which are
-- then combined into the destination (whose contents count too).
-- ==
-- entry: counts
-- input { 1000000i64 1000i64 } output { 1000i64 1993i32 1994017i32 }
-- input { 0i64 10i64 } output { 10i64 0i32 0i32 }
-- input { 100i64 0i64 } output { 0i64 0i32 0i32 }

entry counts (n: i64) (m: i64) : (i64, i32, i32) =
  let is = map (\i -> (i * 7919) % (m + 3) - 1) (iota n)
  let h = hist (+) 0i32 m is (map (\i -> i32.i64 (i % 5)) (iota n))
  in (length h, if m > 0 then h[0] else 0, reduce (+) 0 h)

-- A maximum over buckets that start from non-neutral values.
-- ==
-- entry: maxes
-- input { 200000i64 } output { 640286i64 10004i64 }

entry maxes (n: i64) : (i64, i64) =
  let dest = map (\b -> b * 100) (iota 64)
  let h = reduce_by_index dest i64.max i64.lowest (map (% 64) (iota n)) (map (\i -> (i * 37) % 10007) (iota n))
  in (reduce (+) 0 h, h[63])
