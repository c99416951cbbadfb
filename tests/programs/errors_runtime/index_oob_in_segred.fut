-- Out-of-bounds indices inside a regular segmented reduction, in the
-- reduction's body (rows) and in the map's code before it (pre), for
-- short segments (a work-item each), medium ones (lanes of a work-group)
-- and long ones (whole work-groups): the run fails with the message and
-- never hangs at a barrier; in bounds, the sums are right.
-- ==
-- entry: rows
-- input { 3i64 5i64 5i64 }
-- output { [10i64, 15i64, 20i64] }
-- input { 3i64 100i64 100i64 }
-- output { [4950i64, 5050i64, 5150i64] }
-- input { 3i64 5000i64 5000i64 }
-- output { [12497500i64, 12502500i64, 12507500i64] }
-- input { 3i64 5i64 4i64 }
-- error: [Oo]ut of bounds
-- input { 3i64 100i64 99i64 }
-- error: [Oo]ut of bounds
-- input { 3i64 5000i64 4999i64 }
-- error: [Oo]ut of bounds

entry rows (n: i64) (m: i64) (k: i64) : []i64 =
  let xs = iota k
  in map (\i -> reduce (+) 0 (map (\j -> xs[j] + i) (iota m))) (iota n)

-- ==
-- entry: pre
-- input { 3i64 5i64 3i64 }
-- output { [10i64, 15i64, 20i64] }
-- input { 3i64 100i64 3i64 }
-- output { [4950i64, 5050i64, 5150i64] }
-- input { 3i64 5000i64 3i64 }
-- output { [12497500i64, 12502500i64, 12507500i64] }
-- input { 3i64 5i64 2i64 }
-- error: [Oo]ut of bounds
-- input { 3i64 100i64 2i64 }
-- error: [Oo]ut of bounds
-- input { 3i64 5000i64 2i64 }
-- error: [Oo]ut of bounds

entry pre (n: i64) (m: i64) (k: i64) : []i64 =
  let xs = iota k
  in map (\i -> let b = xs[i] in reduce (+) 0 (map (\j -> j + b) (iota m))) (iota n)

-- One reduction: an index out of bounds in some elements (the unrolled
-- steps and the rest) fails the run.
-- ==
-- entry: one
-- input { 1000003i64 1000003i64 }
-- output { 500002500003i64 }
-- input { 1000003i64 1000002i64 }
-- error: [Oo]ut of bounds
-- input { 1000003i64 3i64 }
-- error: [Oo]ut of bounds

entry one (m: i64) (k: i64) : i64 =
  let xs = iota k
  in reduce (+) 0 (map (\j -> xs[j]) (iota m))
