-- Vector code's uniform variables (compiler/backend/llvm_uniform.c): a
-- while loop's counter that every lane running the loop steps alike is
-- one scalar there, each lane keeping the value it had when it left;
-- counters that are not in lockstep (a step or a start that differs
-- between lanes) stay vectors. Lengths of 150: tasks of four vector
-- registers' worth of lanes, one register's and single iterations;
-- results must equal the scalar code's (tests/multicore/ir.sh checks
-- which counters are scalars).
-- ==
-- entry: steps
-- input { 150i64 }
-- output { [0i32, 1i32, 1i32, 2i32, 2i32, 2i32, 3i32, 2i32, 3i32, 4i32, 3i32, 3i32, 4i32, 3i32, 4i32, 5i32, 3i32, 3i32, 5i32, 4i32, 5i32, 6i32, 4i32, 4i32, 5i32, 4i32, 5i32, 6i32, 4i32, 4i32, 6i32, 5i32, 6i32, 7i32, 4i32, 4i32, 5i32, 4i32, 6i32, 7i32, 5i32, 5i32, 7i32, 6i32, 7i32, 8i32, 5i32, 5i32, 6i32, 5i32, 6i32, 7i32, 5i32, 5i32, 7i32, 6i32, 7i32, 8i32, 5i32, 5i32, 6i32, 5i32, 7i32, 8i32, 6i32, 6i32, 8i32, 7i32, 8i32, 9i32, 5i32, 5i32, 6i32, 5i32, 6i32, 7i32, 5i32, 5i32, 8i32, 7i32, 8i32, 9i32, 6i32, 6i32, 7i32, 6i32, 8i32, 9i32, 7i32, 7i32, 9i32, 8i32, 9i32, 10i32, 6i32, 6i32, 7i32, 6i32, 7i32, 8i32, 6i32, 6i32, 8i32, 7i32, 8i32, 9i32, 6i32, 6i32, 7i32, 6i32, 8i32, 9i32, 7i32, 7i32, 9i32, 8i32, 9i32, 10i32, 6i32, 6i32, 7i32, 6i32, 7i32, 8i32, 6i32, 6i32, 9i32, 8i32, 9i32, 10i32, 7i32, 7i32, 8i32, 7i32, 9i32, 10i32, 8i32, 8i32, 10i32, 9i32, 10i32, 11i32, 6i32, 6i32, 7i32, 6i32, 7i32, 8i32, 6i32, 6i32] }

entry steps (n: i64) : [n]i32 =
  map (\i -> let (_, k) = loop (x, k) = (i, 0i32) while x > 0 do (x / 2 - 1, k + (if x % 3 == 0 then 2 else 1))
             in k) (iota n)

-- ==
-- entry: starts
-- input { 150i64 }
-- output { [0i32, 2i32, 3i32, 5i32, 6i32, 2i32, 3i32, 4i32, 5i32, 7i32, 3i32, 4i32, 5i32, 6i32, 7i32, 3i32, 4i32, 5i32, 6i32, 7i32, 3i32, 4i32, 5i32, 6i32, 7i32, 3i32, 4i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 5i32, 6i32, 7i32, 8i32, 4i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32, 5i32, 6i32, 7i32, 8i32, 9i32] }

entry starts (n: i64) : [n]i32 =
  map (\i -> let (_, k) = loop (x, k) = (i, i32.i64 (i % 5)) while x > 0 do (x / 3, k + 1) in k) (iota n)

-- Two counters in lockstep, one from an argument.
-- ==
-- entry: two
-- input { 150i64 9i32 }
-- output { [8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 8991i32, 9i32, 8991i32] }

entry two (n: i64) (m: i32) : [n]i32 =
  map (\i -> let (_, up, down) = loop (x, up, down) = (i, 0i32, m) while up < m && x % 11 != 5 do (x * 7 + 3, up + 1, down - 2)
             in up * 1000 + down) (iota n)
