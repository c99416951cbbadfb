-- A slice update whose bounds are computed between the map and the
-- update: the size arithmetic and the bounds check move above the map,
-- which then writes straight into a[1:k+1].
-- ==
-- structure mem { Copy 0 Alloc 0 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] [10i32, 20i32, 30i32, 40i32, 50i32] 2i64 }
-- output { [1i32, 11i32, 21i32, 4i32, 5i32] }
-- input { [1i32, 2i32, 3i32] [10i32, 20i32, 30i32] 0i64 }
-- output { [1i32, 2i32, 3i32] }
-- input { [1i32, 2i32, 3i32] [10i32, 20i32, 30i32] 3i64 }
-- error: [Oo]ut of bounds|[Ii]ndex|[Ss]lice

entry main [n] (a: *[n]i32) (b: [n]i32) (k: i64) : [n]i32 =
  let c = map (+1) b[0:k]
  let a[1:k+1] = c
  in a
