-- Module types declared inside modules, operators defined by modules and
-- used qualified, constants that name the
-- definitions they shadow, and a parametric module whose result type
-- refers to its parameter.
-- ==
-- input { 3 4 } output { 25 7 8 12 }

def twice (x: i32) = 2 * x

module shapes = {
  module type point = {
    type t
    val make : i32 -> i32 -> t
    val (<+>) : t -> t -> t
    val norm2 : t -> i32
  }
  def twice = twice
}

module pt : shapes.point = {
  type t = (i32, i32)
  def make (x: i32) (y: i32) : t = (x, y)
  def (a, b) <+> (c, d) : t = (a + c, b + d)
  def norm2 ((a, b): t) = a * a + b * b
}

module wrap (P: {type t val one : t val (+) : t -> t -> t}) : {type t = P.t val inc : t -> t} = {
  type t = P.t
  def inc (x: t) = x P.+ P.one
}

module inc_i32 = wrap {type t = i32 def one = 1i32 def (+) = \(a: i32) (b: i32) -> a + b}

def main (x: i32) (y: i32) : (i32, i32, i32, i32) =
  ( pt.norm2 (pt.make x y)
  , pt.norm2 (pt.make x 0 pt.<+> pt.make 0 1) - 3
  , inc_i32.inc (inc_i32.inc (x + y)) - 1
  , shapes.twice (x + y) - 2
  )
