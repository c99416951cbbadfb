-- Definitions without parameters that are functions are polymorphic, so
-- that a module can give a polymorphic value specification a prelude
-- function by name.
-- ==
-- input { [1, 2, 3] [1.5f32, 2.5f32] } output { [2, 4, 6] [3f32, 5f32] [1, 2, 3] 1 true }

module type mapper = {
  val apply 'a 'b [n] : (a -> b) -> [n]a -> [n]b
  val dup [n] 't : [n]t -> *[n]t
}

module arrays : mapper = {
  def apply = map
  def dup = copy
}

def both = (\(x: i32) -> x, \(b: bool) -> b)

def main (xs: []i32) (ys: []f32) : ([]i32, []f32, []i32, i32, bool) =
  (arrays.apply (* 2) xs, arrays.apply (* 2) ys, arrays.dup xs, both.0 1, both.1 true)
