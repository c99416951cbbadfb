-- Local opens: a numeric module's operators and functions, a structure's
-- names, nested modules.
-- ==
-- input { 2f32 3f32 4f32 } output { 10f32 2.0f64 6 }

module consts = {
  def base = 2i32
  module inner = {
    def scale = 3i32
  }
}

def main (a: f32) (b: f32) (c: f32) : (f32, f64, i32) =
  ( f32.(a * b + c)
  , f64.(sqrt (f32 c) * 2 - 2)
  , consts.(base * inner.(scale))
  )
