-- The tasks of a parallel loop take and drop references to a block made
-- outside them at the same time: each element's if returns either a row
-- of the input (a view of its block, referenced per element) or a fresh
-- array. The counts must be atomic: when they were not, threads lost
-- updates and the input's block was freed early or twice (a crash or a
-- hang in the allocator). That showed on parboil's LBM (futhark-
-- benchmarks) after tens of steps of 2.2M cells; this program runs the
-- same pattern, on a scale the test suite can afford.
-- ==
-- input { [[1i64, 5i64], [2i64, 6i64]] 1000000i64 }
-- output { 8000000i64 }
-- input { [[1i64, 5i64], [2i64, 6i64]] 0i64 }
-- output { 0i64 }

entry main [n][m] (xss: [n][m]i64) (k: i64) : i64 =
  i64.sum (map (\i -> let r = if i % 2 == 0 then xss[i % n] else map (+ 1) xss[i % n]
                      in i64.sum r) (iota k))
