-- N-body simulation.
--
-- Bodies attract each other by gravity (with G = 1 and a small softening
-- term so that close encounters do not blow up).  Each time step computes
-- every body's acceleration from all other bodies, which is an all-pairs
-- map/reduce, then advances velocities and positions with the
-- semi-implicit Euler method.
--
-- The entry point takes the number of steps, the time step, the initial
-- positions, velocities and masses (as separate arrays of coordinates) and
-- returns the final positions.
-- ==
-- input { 1 0.01f64 [0.0f64, 1.0f64, 0.0f64, 0.0f64] [0.0f64, 0.0f64, 1.0f64, 0.0f64] [0.0f64,
--    0.0f64, 0.0f64, 2.0f64] [0.0f64, 0.0f64, -0.5f64, 0.0f64] [0.0f64, 0.5f64, 0.0f64,
--    0.25f64] [0.0f64, 0.0f64, 0.0f64, 0.0f64] [10.0f64, 1.0f64, 1.0f64, 0.5f64] }
-- output { [9.99850018747813e-05f64, 0.9989603252918833f64, -0.004964647312425384f64,
--    8.944003588549907e-06f64] [9.99850018747813e-05f64, 0.005035352687574617f64,
--    0.9989603252918833f64, 0.0025089440035885495f64] [1.2499531264648012e-05f64,
--    8.944003588549907e-06f64, 8.944003588549907e-06f64, 1.9997142333603528f64] }
-- input { 3 0.01f64 [0.0f64, 1.0f64, 0.0f64, 0.0f64] [0.0f64, 0.0f64, 1.0f64, 0.0f64] [0.0f64,
--    0.0f64, 0.0f64, 2.0f64] [0.0f64, 0.0f64, -0.5f64, 0.0f64] [0.0f64, 0.5f64, 0.0f64,
--    0.25f64] [0.0f64, 0.0f64, 0.0f64, 0.0f64] [10.0f64, 1.0f64, 1.0f64, 0.5f64] }
-- output { [0.0005989840469654622f64, 0.9937496471294136f64, -0.0147662573170527f64,
--    5.353943596887888e-05f64] [0.0006030705382620025f64, 0.015191931529669597f64,
--    0.9937511024943139f64, 0.007552521186792947f64] [7.501210038909174e-05f64,
--    5.3719223243110215e-05f64, 5.377261926406276e-05f64, 1.9982847743072039f64] }
-- input { 10 0.005f64 [0.0f64, 1.0f64, 0.0f64, 0.0f64] [0.0f64, 0.0f64, 1.0f64, 0.0f64] [0.0f64,
--    0.0f64, 0.0f64, 2.0f64] [0.0f64, 0.0f64, -0.5f64, 0.0f64] [0.0f64, 0.5f64, 0.0f64,
--    0.25f64] [0.0f64, 0.0f64, 0.0f64, 0.0f64] [10.0f64, 1.0f64, 1.0f64, 0.5f64] }
-- output { [0.0013710623163270398f64, 0.9856290900593536f64, -0.024400908675522887f64,
--    0.00012239090579780135f64] [0.0013922693513435678f64, 0.025382023128550965f64,
--    0.9856367150158096f64, 0.012617136684407174f64] [0.00017196041351632112f64,
--    0.00012332298068531053f64, 0.0001235972145219794f64, 1.9960669513392595f64] }

type vec3 = {x: f64, y: f64, z: f64}

def vadd (a: vec3) (b: vec3) : vec3 = {x = a.x + b.x, y = a.y + b.y, z = a.z + b.z}
def vsub (a: vec3) (b: vec3) : vec3 = {x = a.x - b.x, y = a.y - b.y, z = a.z - b.z}
def vscale (s: f64) (a: vec3) : vec3 = {x = s * a.x, y = s * a.y, z = s * a.z}
def vdot (a: vec3) (b: vec3) : f64 = a.x * b.x + a.y * b.y + a.z * b.z

def zero : vec3 = {x = 0.0, y = 0.0, z = 0.0}

-- | Softening, so that the force stays finite when bodies meet.
def epsilon : f64 = 0.01

-- | The acceleration that a body of mass m_j at p_j gives a body at p_i.
def pull (p_i: vec3) (p_j: vec3) (m_j: f64) : vec3 =
  let d = vsub p_j p_i
  let r2 = vdot d d + epsilon * epsilon
  let inv = 1.0 / (r2 * f64.sqrt r2)
  in vscale (m_j * inv) d

-- | The acceleration of every body.
def accelerations [n] (ps: [n]vec3) (ms: [n]f64) : [n]vec3 =
  map (\p_i -> reduce vadd zero (map2 (pull p_i) ps ms)) ps

-- | One time step: update velocities, then positions with the new velocities.
def step [n] (dt: f64) (ms: [n]f64) (ps: [n]vec3, vs: [n]vec3) : ([n]vec3, [n]vec3) =
  let as = accelerations ps ms
  let vs' = map2 (\v a -> vadd v (vscale dt a)) vs as
  let ps' = map2 (\p v -> vadd p (vscale dt v)) ps vs'
  in (ps', vs')

def main [n] (steps: i32) (dt: f64)
             (xs: [n]f64) (ys: [n]f64) (zs: [n]f64)
             (vxs: [n]f64) (vys: [n]f64) (vzs: [n]f64)
             (ms: [n]f64) : ([n]f64, [n]f64, [n]f64) =
  let ps = map3 (\x y z -> {x, y, z}) xs ys zs
  let vs = map3 (\x y z -> {x, y, z}) vxs vys vzs
  let (ps, _) = loop (ps, vs) for _i < steps do step dt ms (ps, vs)
  in (map (.x) ps, map (.y) ps, map (.z) ps)
