-- A type abbreviation whose definition has an error is reported once, and
-- its uses do not crash the checker (found by the robustness test).
-- ==
-- error: 7:29: error: Unknown type "veO"

type vec = {x: f32, y: f32}
type body = {pos: vec, vel: veO}

def main (x: f32) : f32 =
  let b : body = {pos = {x = x, y = x}, vel = {x = 0, y = 0}}
  in b.pos.x
