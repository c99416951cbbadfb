-- The program of the library fuzz target (tests/fuzz/library.c): arrays of
-- ranks 1 to 3, a record the C API makes opaque (two array fields and a
-- scalar), an entry point that consumes its argument and ones that fail at
-- run time.

type cloud [n][m] = {pts: [n][m]f32, ids: [n]i32, w: f64}

entry sum (xs: []i32) : i32 = reduce (+) 0 xs

entry scale (a: f32) (m: [][]f32) : [][]f32 = map (map (* a)) m

entry cube_total (c: [][][]u8) : u8 = reduce (+) 0 (flatten (flatten c))

entry mk_cloud [n][m] (pts: [n][m]f32) (ids: [n]i32) (w: f64) : cloud [n][m] = {pts, ids, w}

entry weigh [n][m] (c: cloud [n][m]) : [n][m]f32 = map (map (* f32.f64 c.w)) c.pts

entry bump (xs: *[]i32) (i: i64) : []i32 = xs with [i] = xs[i] + 1

entry checked_div (a: i32) (b: i32) : i32 = assert (b != 0) (a / b)
