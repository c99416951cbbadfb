-- Nested records and updates of nested fields.
-- ==
-- input { 1.5f32 2.0f32 }
-- output { 2.5f32 2.0f32 -2.0f32 }

type vec = {x: f32, y: f32}
type body = {pos: vec, vel: vec}

def main (px: f32) (py: f32) : (f32, f32, f32) =
  let b : body = {pos = {x = px, y = py}, vel = {x = 1f32, y = -1f32}}
  let b = b with pos.x = b.pos.x + b.vel.x
  let b = b with vel = {x = 0f32, y = b.vel.y * 2f32}
  in (b.pos.x, b.pos.y, b.vel.y)
