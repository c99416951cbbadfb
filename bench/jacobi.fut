-- Benchmark: `steps` sweeps of the 5-point Jacobi stencil on an f32 grid
-- (peers: jacobi5_8192_x10, steps = 10).  Each new value is 0.2 times the
-- sum of the old value and its four neighbours; neighbours outside the grid
-- take the nearest edge value (edge padding, as in peers.py).  A loop
-- around a perfect 2-D map; bandwidth-bound.
-- ==
-- input { 1 [[1.0f32, 2.0f32], [3.0f32, 4.0f32]] }
-- output { [[1.6f32, 2.2f32], [2.8f32, 3.4f32]] }
-- input { 2 [[0.0f32, 0.0f32, 0.0f32], [0.0f32, 5.0f32, 0.0f32], [0.0f32, 0.0f32, 0.0f32]] }
-- output { [[0.4f32, 0.6f32, 0.4f32], [0.6f32, 1.0f32, 0.6f32], [0.4f32, 0.6f32, 0.4f32]] }

-- | One sweep of the stencil.
def step [n][m] (g: [n][m]f32) : [n][m]f32 =
  tabulate_2d n m (\i j ->
    let up = g[i64.max (i - 1) 0, j]
    let down = g[i64.min (i + 1) (n - 1), j]
    let left = g[i, i64.max (j - 1) 0]
    let right = g[i, i64.min (j + 1) (m - 1)]
    in 0.2 * (g[i, j] + up + down + left + right))

def main [n][m] (steps: i32) (g: [n][m]f32) : [n][m]f32 =
  loop g for _i < steps do step g
