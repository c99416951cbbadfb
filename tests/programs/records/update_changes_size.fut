-- A record update may give an array field another size (as in Futhark):
-- the updated record's field has the new value's size, nested fields and
-- tuple fields by number too (another element type is still an error:
-- tests/errors/record_update_elem_type.fut).
-- ==
-- input { [1, 2, 3] [4, 5] }
-- output { [4, 5] [4, 5] 8i64 }

entry main [n] [m] (xs: [n]i32) (ys: [m]i32) : ([m]i32, [m]i32, i64) =
  let r0 = {a = xs, b = (ys, 1i64)}
  let r1 = r0 with a = ys
  let r2 = r1 with b.0 = ys with b.1 = 5
  in (r2.a, r2.b.0, r2.b.1 + length r0.a)
