-- Negative: the element read comes before an in-place update of its
-- array; moved into a kernel at the literal, after the update, it would
-- read the new element. The read stays on the host (no kernel), and the
-- literal has the old element.
-- ==
-- structure gpu { SegMap 0 }
-- input { [1i32, 2i32] }
-- output { [2i32] [5i32, 2i32] }

entry main (xs: *[]i32) : ([1]i32, []i32) =
  let x = xs[0]
  let xs[0] = 5
  in ([x + 1], xs)
