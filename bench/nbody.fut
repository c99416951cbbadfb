-- Benchmark: all-pairs n-body accelerations in f32 (peers: nbody_acc_32768).
-- Body i gets sum_j m_j * d_ij / (r2 * sqrt r2) with d_ij = p_j - p_i and
-- r2 = |d_ij|^2 + 1e-3 (softening), exactly as peers.py.  Positions and the
-- result are one array per coordinate.  A map over bodies of a map-reduce
-- over all bodies; compute-bound.
-- ==
-- input { [0.0f32, 1.0f32, 0.0f32] [0.0f32, 0.0f32, 2.0f32] [0.0f32, 0.0f32, 0.0f32]
--         [1.0f32, 2.0f32, 4.0f32] }
-- output { [1.997004f32, -1.356165f32, 0.178832f32]
--          [0.999625f32, 0.715327f32, -0.607570f32]
--          [0.0f32, 0.0f32, 0.0f32] }

-- | Softening added to the squared distance, so that r2 > 0.
def softening : f32 = 1e-3

-- | The acceleration that a body of mass m at (x, y, z) gives a body at (xi, yi, zi).
def pull (xi: f32, yi: f32, zi: f32) (x: f32) (y: f32) (z: f32) (m: f32) : (f32, f32, f32) =
  let (dx, dy, dz) = (x - xi, y - yi, z - zi)
  let r2 = dx * dx + dy * dy + dz * dz + softening
  let inv = m / (r2 * f32.sqrt r2)
  in (dx * inv, dy * inv, dz * inv)

def vadd (a: (f32, f32, f32)) (b: (f32, f32, f32)) : (f32, f32, f32) =
  (a.0 + b.0, a.1 + b.1, a.2 + b.2)

def main [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) (ms: [n]f32)
           : ([n]f32, [n]f32, [n]f32) =
  let acc (p: (f32, f32, f32)) = reduce vadd (0, 0, 0) (map4 (pull p) xs ys zs ms)
  in unzip3 (map acc (zip3 xs ys zs))
