-- The carry pass leaves alone what it must not carry: an integer division
-- of the parameters (it may fail: computing it once more before the loop
-- could fail where the program does not), an op of the for-loop's own
-- index (no next value among the results), and an op of parameters whose
-- op of the results the body never computes. The operation counts are
-- those of `--skip-pass=carry` (the program's, all three entries).
-- ==
-- entry: divide
-- structure { BinOp 18 }
-- input { 10i32 0i32 } output { 0i32 }
-- input { 100i32 3i32 } output { 4i32 }

-- ==
-- entry: indexed
-- input { 5i64 } output { 80i64 }

-- ==
-- entry: unmatched
-- input { 3i32 } output { 3308i32 }

entry divide (x: i32) (k: i32) : i32 =
  let (_, n) = loop (x, n) = (x, 0) while k != 0 && x / k > 0 do (x / k, n + 1) in n

entry indexed (n: i64) : i64 = loop s = 0 for i < n do s + i * i + (i + 1) * (i + 1) - 1

entry unmatched (x: i32) : i32 = loop y = x for _i < 3 do y * y - y + 2
