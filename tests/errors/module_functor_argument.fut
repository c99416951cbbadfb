-- ==
-- error: 8:14: error: Module type specifies val x : i32, but module provides val x : f32

module add (P: {val x : i32}) = {
  def y = P.x + 1
}

module bad = add {def x = 1f32}

def main (z: i32) = bad.y + z
