-- A time loop around a 2D five-point stencil written with tabulate_2d and
-- small index helpers (clamped borders). The two maps of tabulate_2d are a
-- perfect nest: one SegMap per step, inside a host loop: 1 kernel.
-- ==
-- structure gpu { SegMap 1 Kernel 1 }
-- input { 1i32 [[0.0f32, 0.0f32, 0.0f32], [0.0f32, 8.0f32, 0.0f32], [0.0f32, 0.0f32, 0.0f32]] }
-- output { [[0.0f32, 1.0f32, 0.0f32], [1.0f32, 4.0f32, 1.0f32], [0.0f32, 1.0f32, 0.0f32]] }
-- input { 2i32 [[0.0f32, 0.0f32, 0.0f32], [0.0f32, 8.0f32, 0.0f32], [0.0f32, 0.0f32, 0.0f32]] }
-- output { [[0.25f32, 1.125f32, 0.25f32], [1.125f32, 2.5f32, 1.125f32], [0.25f32, 1.125f32, 0.25f32]] }
-- input { 3i32 [[1.0f32, 2.0f32], [3.0f32, 4.0f32], [5.0f32, 6.0f32]] }
-- output { [[1.9492188f32, 2.3710938f32], [3.2890625f32, 3.7109375f32], [4.6289062f32, 5.0507812f32]] }
-- input { 3i32 [[5.0f32]] }
-- output { [[5.0f32]] }
-- input { 0i32 [[1.0f32, 2.0f32]] }
-- output { [[1.0f32, 2.0f32]] }
-- input @ data/stencil_2d_loop.in
-- output @ data/stencil_2d_loop.out

def clamp_index (n: i64) (i: i64) : i64 = i64.max 0 (i64.min (n - 1) i)

def at [n][m] (g: [n][m]f32) (i: i64) (j: i64) : f32 =
  g[clamp_index n i, clamp_index m j]

def step [n][m] (g: [n][m]f32) : [n][m]f32 =
  tabulate_2d n m (\i j ->
    (at g (i - 1) j + at g (i + 1) j + at g i (j - 1) + at g i (j + 1) + 4 * g[i, j]) / 8)

def main [n][m] (steps: i32) (g: [n][m]f32) : [n][m]f32 =
  loop g for _t < steps do step g
