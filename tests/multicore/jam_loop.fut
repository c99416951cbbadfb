-- Loops around a reduction whose iterations the multicore backend runs
-- four at a time (imp_jam: the nearest centre of each point, then a
-- comparison with the best so far, in order). The distances are whole
-- numbers, so ties are exact: the first of equally near centres must
-- win, whatever the number of centres left over after the groups of
-- four (k = 0 to 9), and on every backend.
-- ==
-- entry: nearest
-- input { 1000i64 7i64 0i64 } output { 0i64 0i64 }
-- input { 1000i64 7i64 1i64 } output { 0i64 0i64 }
-- input { 1000i64 7i64 3i64 } output { 909i64 454728i64 }
-- input { 1000i64 7i64 4i64 } output { 1455i64 727728i64 }
-- input { 1000i64 7i64 5i64 } output { 2001i64 1000182i64 }
-- input { 1000i64 7i64 9i64 } output { 3821i64 1907543i64 }
-- input { 1000i64 16i64 32i64 } output { 4726i64 2361729i64 }
-- input { 1000i64 0i64 6i64 } output { 0i64 0i64 }

def sqdist [d] (p: [d]f32) (c: [d]f32) : f32 =
  reduce (+) 0 (map2 (\a b -> (a - b) * (a - b)) p c)

def nearest_of [k][d] (cs: [k][d]f32) (p: [d]f32) : i64 =
  let (best, _) =
    loop (best, best_d) = (0i64, f32.inf) for c < k do
      let dc = sqdist p cs[c]
      in if dc < best_d then (c, dc) else (best, best_d)
  in best

entry nearest (n: i64) (d: i64) (k: i64) : (i64, i64) =
  let pts = tabulate_2d n d (\i j -> f32.i64 ((i * 7 + j * 3) % 11))
  let cs = tabulate_2d k d (\c j -> f32.i64 ((c * 5 + j) % 11))
  let m = map (nearest_of cs) pts
  in (i64.sum m, i64.sum (map2 (*) m (iota n)))

-- The tail reads what the loop carries (a running total weighted by the
-- distances so far) and asserts; the head must not see the tails of the
-- iterations grouped with it.
-- ==
-- entry: weighted
-- input { 500i64 5i64 7i64 } output { 32050.0f32 }

entry weighted (n: i64) (d: i64) (k: i64) : f32 =
  let pts = tabulate_2d n d (\i j -> f32.i64 ((i * 3 + j) % 5))
  let cs = tabulate_2d k d (\c j -> f32.i64 ((c + j * 2) % 7))
  let one p =
    loop acc = 0f32 for c < k do
      let dc = sqdist p cs[c]
      let dc = assert (dc >= 0) dc
      in if dc < acc then acc - dc / 2 else acc + dc
  in f32.sum (map one pts)
