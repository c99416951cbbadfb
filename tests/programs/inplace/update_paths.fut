-- Update paths: fields and brackets in one update, in `with` and in
-- `let`. An array of records is stored as one array per field, so
-- `xs with [i].f = v` writes one element of the f array in place.
-- ==
-- entry: elem_field
-- input { [1, 2, 3] [10f32, 20f32, 30f32] 1i64 7 }
-- output { [1, 7, 3] [10f32, 20f32, 30f32] }
-- input { [1, 2, 3] [10f32, 20f32, 30f32] 3i64 7 }
-- error: [Ii]ndex|bounds
-- ==
-- entry: field_elem
-- input { [1, 2, 3] 9 }
-- output { [1, 9, 3] 5 }
-- ==
-- entry: lets
-- input { 4 }
-- output { [[1, 4, 3], [4, 5, 6]] 4 [0, 4, 4, 0] 4 }
-- ==
-- entry: nested
-- input { 8 }
-- output { [[1, 8, 3], [4, 5, 6]] }
-- ==
-- entry: tuple_fields
-- input { [1, 2, 3] [4, 5, 6] }
-- output { [7, 2, 3] [4, 5, 9] }
-- input { [1] [4] }
-- error: [Ii]ndex|bounds

type rec = {f: i32, g: f32}

entry elem_field [n] (fs: [n]i32) (gs: [n]f32) (i: i64) (v: i32) : ([n]i32, [n]f32) =
  let xs: *[n]rec = map2 (\f g -> {f, g}) fs gs
  let ys = xs with [i].f = v
  in (map (.f) ys, map (.g) ys)

entry field_elem (a: []i32) (v: i32) : ([]i32, i32) =
  let r = {f = copy a, n = 5}
  let r' = r with f[1] = v
  in (r'.f, r'.n)

entry lets (v: i32) : ([2][3]i32, i32, [4]i32, i32) =
  let xss = [[1, 2, 3], [4, 5, 6]]
  let xss[0][1] = v
  let r = {a = {b = 0}, c = [0, 1, 2, 0]}
  let r.a.b = v
  let r.c[1:3] = [v, v]
  let ps = [{p = 1}, {p = 2}]
  let ps[1].p = v
  in (xss, r.a.b, r.c, ps[1].p)

entry nested (v: i32) : [2][3]i32 =
  let xss: *[]{a: []i32} = [{a = [1, 2, 3]}, {a = [4, 5, 6]}]
  let ys = xss with [0].a[1] = v
  in map (.a) ys

-- A tuple's field by number, then an element: t with 0[i] = v.
entry tuple_fields [n] (a: *[n]i32) (b: *[n]i32) : ([n]i32, [n]i32) =
  let t = (a, b)
  in (t with 0[0] = 7) with 1[2] = 9
