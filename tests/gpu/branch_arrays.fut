-- A map whose elements choose between arrays in an if: each branch
-- builds its array straight in the element's row of the result (the
-- if's result has a place, so it needs no memory of its own), and a
-- temporary array that one branch makes gets a per-element block made
-- before the kernel. Nothing allocates inside the kernel, so the map runs
-- on the device (a SegMap, not on the host).
-- ==
-- structure gpu { SegMap 1 Host 0 }
-- structure mem { Copy 0 }
-- input { [1f32, -2f32, 0f32] }
-- output { [[6f32, 1f32, 2f32], [-1f32, 0f32, 1f32], [1f32, 2f32, 3f32]] }
-- input { empty([0]f32) }
-- output { empty([0][3]f32) }

entry main [n] (xs: [n]f32) : [n][3]f32 =
  map (\x -> if x > 0
             then let t = map (\i -> x * f32.i64 i) (iota 4)
                  in [f32.sum t, x, 2 * x]
             else map (+ x) [1f32, 2f32, 3f32]) xs
