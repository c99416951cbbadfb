-- Entry points for tests/library/opaque_test.c: tuple and record
-- parameters and results, which the C API gives opaque types (a named
-- record, a record with an array field, an anonymous tuple inside a
-- top-level tuple result, an array of tuples, a record nested in a
-- record, an irregular array), and entry points taking them back.

type point = {x: f32, y: f32}

entry mk_point (x: f32) (y: f32) : point = {x, y}

entry norm2 (p: point) : f32 = p.x * p.x + p.y * p.y

entry shift (p: point) (d: f32) : point = {x = p.x + d, y = p.y + d}

type cloud [n] = {pts: [n]f32, weight: f64}

entry mk_cloud [n] (xs: [n]f32) (w: f64) : cloud [n] = {pts = xs, weight = w}

entry cloud_total [n] (c: cloud [n]) : f64 = f64.f32 (reduce (+) 0 c.pts) * c.weight

entry counted (n: i64) : (i32, (i64, []i64)) = (i32.i64 n, (n, iota n))

entry pair_total (p: (i64, []i64)) : i64 = p.0 + reduce (+) 0 p.1

entry zipped [n] (xs: [n]i32) (ys: [n]f32) : [n](i32, f32) = zip xs ys

entry zipped_total [n] (ps: [n](i32, f32)) : f32 = reduce (+) 0 (map (\(a, b) -> f32.i32 a + b) ps)

type nested = {p: point, n: i32}

entry mk_nested (x: f32) (n: i32) : nested = {p = {x, y = x}, n}

entry nested_total (v: nested) : i32 = v.n + i32.f32 v.p.x

entry irr_rows (n: i64) : irregular [n] f32 = to_irregular (map (\i -> map f32.i64 (iota (i + 1))) (iota n))

entry irr_sums [n] (x: irregular [n] f32) : [n]f32 = map f32.sum (from_irregular x)
