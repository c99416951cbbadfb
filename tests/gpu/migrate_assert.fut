-- Negative: an assertion reads the value read from the array, so the
-- read stays on the host and the literal with it (no kernel).
-- ==
-- structure gpu { SegMap 0 }
-- input { [1i32, 2i32] }
-- output { [2i32] }
-- input { [0i32, 2i32] }
-- error: [Aa]ssert

entry main (xs: []i32) : [1]i32 =
  let x = xs[0]
  let x = assert (x > 0) x
  in [x + 1]
