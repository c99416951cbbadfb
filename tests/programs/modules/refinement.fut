-- "with" makes an abstract type of a module type known: values of the
-- sealed module can then be used at the refined type, also through a
-- nested module.
-- ==
-- input { 4 } output { 9 true }

module type box = {
  type t
  val make : i32 -> t
}

module type boxes = {
  module inner : box
  val check : inner.t -> bool
}

module int_box : box with t = i32 = {
  type t = i32
  def make (x: i32) = x * 2
}

module both : boxes with inner.t = i32 = {
  module inner = int_box
  def check (x: i32) = x > 0
}

def main (x: i32) : (i32, bool) = (int_box.make x + 1, both.check (both.inner.make x))
