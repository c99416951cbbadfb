-- Arrays of records, projected with (.field).
-- ==
-- input { [1.0f64, 2.0f64, 4.0f64] [2.0f64, 1.0f64, 0.5f64] }
-- output { 3.5f64 [1.0f64, 2.0f64, 4.0f64] }

type particle = {mass: f64, speed: f64}

def energy (p: particle) : f64 = 0.5 * p.mass * p.speed * p.speed

def main [n] (ms: [n]f64) (vs: [n]f64) : (f64, []f64) =
  let ps = map2 (\m v -> {mass = m, speed = v}) ms vs
  in (f64.sum (map energy ps), map (.mass) ps)
