-- Double buffering in many tasks at once: each row's loop rebuilds its
-- array every iteration in a block it carries, made once per element
-- (tests/gpu/loop_double_buffer.fut). Every task needs its own copy of
-- that block (and of the parameter's first block, a copy of the row);
-- shared, the tasks overwrote each other's rows. The sum of row i is
-- (8i + 28) 2^k, as reversing keeps it.
-- ==
-- input { 100000i64 3 }
-- output { 320019200000i64 }
-- input { 0i64 3 }
-- output { 0i64 }

entry main (n: i64) (k: i32) : i64 =
  let xss = tabulate_2d n 8 (\i j -> i + j)
  let r = map (\xs -> loop ys = xs for _i < k do map (* 2) (reverse ys)) xss
  in i64.sum (map i64.sum r)
