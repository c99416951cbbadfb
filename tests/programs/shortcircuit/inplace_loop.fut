-- A loop whose parameter starts as a fresh array that dies with the loop
-- owns its block: the map of each iteration is built in place, so the
-- whole program allocates one block (the first map's).
-- ==
-- structure mem { Alloc 1 Copy 0 }
-- input { [1i32, 2i32, 3i32] 3 }
-- output { [16i32, 24i32, 32i32] }
-- input { [1i32, 2i32, 3i32] 0 }
-- output { [2i32, 3i32, 4i32] }

entry main [n] (xs0: [n]i32) (k: i32) : [n]i32 =
  loop xs = map (+1) xs0 for _i < k do map (*2) xs
