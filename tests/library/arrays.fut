-- Entry points for tests/library/api_test.c and ffi_test.py: arrays of
-- several ranks and element types, several results, shared sizes, a
-- consumed argument, run-time failures (on the host and in a kernel),
-- scalars of every type, and results that are an argument or a slice of one.

entry sum (xs: []i32) : i32 = reduce (+) 0 xs

entry scale (a: f32) (m: [][]f32) : [][]f32 = map (map (* a)) m

entry stats (xs: []f64) : (f64, f64, []f64) =
  (reduce (+) 0 xs, reduce f64.max (-f64.inf) xs, map (* 2) xs)

entry add [n] (xs: [n]i64) (ys: [n]i64) : [n]i64 = map2 (+) xs ys

entry at (xs: []u8) (i: i64) : u8 = xs[i]

entry any_true (bs: []bool) : (bool, i64) = (reduce (||) false bs, length bs)

entry incr3 (c: [][][]i16) : [][][]i16 = map (map (map (+ 1))) c

entry set_first (xs: *[]i32) : []i32 = xs with [0] = 42

entry checked_div (a: i32) (b: i32) : i32 = assert (b != 0) (a / b)

entry answer : i32 = 42

entry next (a: i8) (b: i16) (c: i32) (d: i64) (e: u8) (f: u16) (g: u32) (h: u64)
           (x: f32) (y: f64) (z: bool) : (i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, bool) =
  (a + 1, b + 1, c + 1, d + 1, e + 1, f + 1, g + 1, h + 1, x + 1, y + 1, !z)

entry same (xs: []i32) : []i32 = xs

entry tail (xs: []i32) : []i32 = xs[1:]

entry gather (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i]) is
