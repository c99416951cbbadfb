-- A size coercion inside a map's function gives its result the coerced
-- size, so the map is regular even where the size before the coercion is
-- computed from the element (Futhark checks the coercion when it runs).
-- ==
-- entry: window
-- input { 2i64 [1,2,3,4,5,6,7,8,9] }
-- output { [[1, 2, 3], [3, 4, 5]] }
-- input { 3i64 [1,2,3,4] }
-- error: out of bounds

-- ==
-- entry: strided
-- input { 4i64 [1,3] }
-- output { [[0, 1, 2, 3], [0, 3, 6, 9]] }

-- ==
-- entry: ranges
-- input { 3i64 [3,3] }
-- output { [[0i64, 1i64, 2i64], [0i64, 1i64, 2i64]] }
-- input { 3i64 [3,2] }
-- error: cannot match

-- The loop runs as a loop of maps over both elements (compiler/lower/interchange.c):
-- no kernel could allocate its array, whose size changes in each iteration.
-- ==
-- entry: grown
-- structure gpu { Host 0 }
-- input { 3i64 }
-- output { [[1f32, 1f32, 0f32, 0f32, 0f32], [1f32, 1f32, 2f32, 4f32, 8f32]] }

entry window (n: i64) (xs: []i32) : [n][3]i32 =
  tabulate n (\i -> map (+ i32.i64 i) (xs[i:i + 3] :> [3]i32))

entry strided (k: i64) (ss: []i32) =
  map (\s -> (0..s..<s * i32.i64 k) :> [k]i32) ss

entry ranges k (ns: []i64) = map (\n -> iota n :> [k]i64) ns

-- A loop that grows an array, its result coerced to the size it reaches.
def grow (t: i64) (r: i64) : [t + 2]f32 =
  (loop buf = [1f32, 1f32] for _i < t do buf ++ [f32.sum buf * f32.i64 r]) :> [t + 2]f32

entry grown (t: i64) : [2][t + 2]f32 = map (grow t) (iota 2)
