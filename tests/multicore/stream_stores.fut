-- Outputs of 32 MiB and more, which the multicore backend writes by
-- streaming stores (mc.c): a map in a loop, whose lanes store vectors
-- (and whose input is the loop's last result), and a scan, whose second
-- pass streams. Their values must be those of ordinary stores once the
-- parallel loop is over.
-- ==
-- entry: loop_map
-- input { 8388613i64 }
-- output { [4i64, 8i64, 16777228i64, 25165835i64, 8388613i64] 140737639350312i64 }

entry loop_map (n: i64) : ([5]i64, i64) =
  let ys = loop xs = iota n for _i < 2 do map (\i -> xs[i] + xs[(i + 1) % n]) (iota n)
  in ([ys[0], ys[1], ys[n / 2], ys[n - 2], ys[n - 1]], i64.sum ys)

-- ==
-- entry: prefix
-- input { 8388608i64 }
-- output { [0i64, 15i64, 18874405i64, 37748728i64] }

entry prefix (n: i64) : [4]i64 =
  let ss = scan (+) 0 (map (\i -> i % 10) (iota n))
  in [ss[0], ss[5], ss[n / 2 + 10], ss[n - 1]]
