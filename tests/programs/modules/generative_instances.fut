-- Each application of a parametric module that seals its result has its
-- own abstract type; values stay with their own instance. Instances keep
-- the argument's definitions (not shared state: there is none).
-- ==
-- input { 4 } output { 5 40 }

module type cell = {
  type t
  val make : i32 -> t
  val get : t -> i32
}

module mk_cell (P: {val scale : i32}) : cell = {
  type t = i32
  def make (x: i32) = x * P.scale
  def get (x: t) = x
}

module ones = mk_cell {def scale = 1i32}
module tens = mk_cell {def scale = 10i32}

def main (x: i32) : (i32, i32) = (ones.get (ones.make (x + 1)), tens.get (tens.make x))
