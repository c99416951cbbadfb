-- A clamp map on the blend factors, a map3 lerp over three arrays and a
-- max reduce, chained with |>. Both maps fuse into the reduce: one
-- whole-array SegRed, 2 kernels.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { [0.0f32, 10.0f32, 4.0f32] [10.0f32, 0.0f32, 4.0f32] [0.5f32, 2.0f32, -1.0f32] }
-- output { 5.0f32 }
-- input { [1.0f32] [3.0f32] [0.25f32] }
-- output { 1.5f32 }
-- input { empty([0]f32) empty([0]f32) empty([0]f32) }
-- output { -f32.inf }
-- input @ data/map3_blend.in
-- output @ data/map3_blend.out

def lerp (a: f32) (b: f32) (t: f32) : f32 = a + (b - a) * t

def clamp01 (x: f32) : f32 = f32.max 0 (f32.min 1 x)

def main [n] (xs: [n]f32) (ys: [n]f32) (ts: [n]f32) : f32 =
  map3 lerp xs ys (map clamp01 ts) |> reduce f32.max (-f32.inf)
