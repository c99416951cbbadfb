-- Benchmark (short-circuiting): Rodinia's Hotspot, a thermal simulation
-- on an r x c grid of temperatures with a grid of power values; each
-- step moves every cell towards its neighbours, the power it dissipates
-- and the ambient temperature (Rodinia's constants; neighbours outside
-- the grid are the cell itself). The new grid is assembled from pieces,
-- as a port of Rodinia's separate edge and corner cases reads:
--   [top row] ++ inner rows ++ [bottom row],
-- each edge row [corner] ++ edge ++ [corner]. With short-circuiting
-- every piece is computed in its place in the new grid; without it, the
-- inner rows, the edge rows and the literals are made apart and copied
-- in (a whole grid of copying per step). Needs r, c >= 2.
-- ==
-- input { 1 [[300f32, 310f32], [320f32, 330f32]] [[0.5f32, 1f32], [0.25f32, 0f32]] }
-- output { [[299.985352f32, 309.98468f32], [319.984009f32, 329.983307f32]] }
-- input { 2 [[300f32, 310f32, 320f32], [330f32, 340f32, 350f32], [360f32, 370f32, 380f32]]
--           [[1f32, 0f32, 0f32], [0f32, 2f32, 0f32], [0f32, 0f32, 3f32]] }
-- output { [[299.970764f32, 309.969421f32, 319.968048f32], [329.966675f32, 339.965393f32, 349.963989f32],
--            [359.962646f32, 369.961243f32, 379.959961f32]] }

def max_pd : f32 = 3.0e6
def precision : f32 = 0.001
def spec_heat_si : f32 = 1.75e6
def k_si : f32 = 100
def factor_chip : f32 = 0.5
def t_chip : f32 = 0.0005
def chip_height : f32 = 0.016
def chip_width : f32 = 0.016
def amb_temp : f32 = 80

def step [r][c] (temp: [r][c]f32) (power: [r][c]f32) : [r][c]f32 =
  let grid_height = chip_height / f32.i64 r
  let grid_width = chip_width / f32.i64 c
  let cap = factor_chip * spec_heat_si * t_chip * grid_width * grid_height
  let rx = grid_width / (2 * k_si * t_chip * grid_height)
  let ry = grid_height / (2 * k_si * t_chip * grid_width)
  let rz = t_chip / (k_si * grid_height * grid_width)
  let max_slope = max_pd / (factor_chip * t_chip * spec_heat_si)
  let k = (precision / max_slope) / cap
  let cell (i: i64) (j: i64) : f32 =
    let t = temp[i, j]
    let n = temp[i64.max (i - 1) 0, j]
    let s = temp[i64.min (i + 1) (r - 1), j]
    let w = temp[i, i64.max (j - 1) 0]
    let e = temp[i, i64.min (j + 1) (c - 1)]
    in t + k * (power[i, j] + (s + n - 2 * t) / ry + (e + w - 2 * t) / rx + (amb_temp - t) / rz)
  let edge_row (i: i64) : [c]f32 =
    [cell i 0] ++ map (cell i) (1..<c-1) ++ [cell i (c - 1)] :> [c]f32
  let inner = tabulate_2d (r - 2) c (\i j -> cell (i + 1) j)
  in [edge_row 0] ++ inner ++ [edge_row (r - 1)] :> [r][c]f32

def main [r][c] (steps: i32) (temp: [r][c]f32) (power: [r][c]f32) : [r][c]f32 =
  loop temp for _i < steps do step temp power
