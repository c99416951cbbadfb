-- A parametric module applied to a named module and to an anonymous
-- structure; each application is its own instance.
-- ==
-- input { 3 } output { 8 7 }

module type has_step = {
  type t
  val step : t -> t
}

module twice (S: has_step) = {
  def apply (x: S.t) : S.t = S.step (S.step x)
}

module add_one = {
  type t = i32
  def step (x: i32) = x + 1
}

module by_one = twice add_one
module by_two = twice { type t = i32 def step (x: i32) = x * 2 }

def main (x: i32) : (i32, i32) = (by_two.apply (by_one.apply x) - 12, by_one.apply (by_one.apply x))
