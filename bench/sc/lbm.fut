-- Benchmark (short-circuiting): an LBM-style time loop that keeps every
-- step's lattice, hist[t+1] = step hist[t], as the thesis's LBM does
-- with its row updates. The lattice is D2Q9 on a periodic n x m grid
-- (9 distributions per cell, [n][m][9]); a step streams each
-- distribution from the neighbour it comes from and relaxes it towards
-- equilibrium (BGK, omega 1.2). With short-circuiting the step's kernel
-- writes row t+1 of the history directly; without it, each step's lattice
-- is made apart and copied into its row. Returns the last lattice.
-- ==
-- input { 2i64 [[[0.1f32, 0.2f32, 0.3f32, 0.4f32, 0.1f32, 0.2f32, 0.3f32, 0.4f32, 0.1f32], [0.4f32, 0.1f32,
--   0.2f32, 0.3f32, 0.4f32, 0.1f32, 0.2f32, 0.3f32, 0.4f32], [0.3f32, 0.4f32, 0.1f32, 0.2f32,
--   0.3f32, 0.4f32, 0.1f32, 0.2f32, 0.3f32]], [[0.4f32, 0.1f32, 0.2f32, 0.3f32, 0.4f32, 0.1f32,
--   0.2f32, 0.3f32, 0.4f32], [0.3f32, 0.4f32, 0.1f32, 0.2f32, 0.3f32, 0.4f32, 0.1f32, 0.2f32,
--   0.3f32], [0.2f32, 0.3f32, 0.4f32, 0.1f32, 0.2f32, 0.3f32, 0.4f32, 0.1f32, 0.2f32]]] }
-- output { [[[1.03561f32, 0.279376f32, 0.266212f32, 0.243535f32, 0.246692f32, 0.0870329f32, 0.0748219f32,
--   0.0606839f32, 0.0662908f32], [0.971619f32, 0.253339f32, 0.204269f32, 0.212139f32, 0.340269f32,
--   0.048509f32, 0.056407f32, 0.0702425f32, 0.0986734f32], [0.975145f32, 0.331857f32, 0.151875f32,
--   0.224897f32, 0.427395f32, 0.0536702f32, 0.0325113f32, 0.114286f32, 0.150776f32]], [[0.878196f32,
--   0.224003f32, 0.175587f32, 0.259998f32, 0.315279f32, 0.0459442f32, 0.0611419f32, 0.0848836f32,
--   0.0871256f32], [1.02422f32, 0.277616f32, 0.209245f32, 0.189532f32, 0.290644f32, 0.0709499f32,
--   0.035938f32, 0.0703142f32, 0.0869233f32], [0.949686f32, 0.267704f32, 0.285297f32, 0.247793f32,
--   0.200206f32, 0.0854139f32, 0.0820393f32, 0.0551102f32, 0.0610702f32]]] }

def ex : [9]i64 = [0, 1, 0, -1, 0, 1, -1, -1, 1]
def ey : [9]i64 = [0, 0, 1, 0, -1, 1, 1, -1, -1]
def wt : [9]f32 = [4/9, 1/9, 1/9, 1/9, 1/9, 1/36, 1/36, 1/36, 1/36]
def omega : f32 = 1.2

def step [n][m] (f: [n][m][9]f32) : [n][m][9]f32 =
  tabulate_2d n m (\i j ->
    let fs = map (\k -> f[(i - ey[k] + n) % n, (j - ex[k] + m) % m, k]) (iota 9)
    let rho = f32.sum fs
    let ux = f32.sum (map2 (\fk k -> fk * f32.i64 ex[k]) fs (iota 9)) / rho
    let uy = f32.sum (map2 (\fk k -> fk * f32.i64 ey[k]) fs (iota 9)) / rho
    let uu = ux * ux + uy * uy
    in map (\k -> let eu = f32.i64 ex[k] * ux + f32.i64 ey[k] * uy
                  let feq = wt[k] * rho * (1 + 3 * eu + 4.5 * eu * eu - 1.5 * uu)
                  in fs[k] - omega * (fs[k] - feq)) (iota 9))

def main [n][m] (steps: i64) (f0: [n][m][9]f32) : [n][m][9]f32 =
  let hist = replicate (steps + 1) (replicate n (replicate m (replicate 9 0f32)))
  let hist[0] = f0
  let hist = loop hist for t < steps do
               let hist[t + 1] = step hist[t]
               in hist
  in hist[steps]
