-- Module types built from others with include, module specifications
-- and type definitions that refer to abstract types.
-- ==
-- input { 6 } output { 12 3i64 }

module type has_t = { type t }

module type monoid = {
  include has_t
  val zero : t
  val plus : t -> t -> t
}

module type with_count = {
  include monoid
  type pair = (t, i64)
  module ops : { val double : t -> t }
  val count : pair -> i64
}

module ints : with_count with t = i32 = {
  type t = i32
  type pair = (i32, i64)
  def zero = 0i32
  def plus (a: i32) (b: i32) = a + b
  module ops = { def double (x: i32) = x + x }
  def count (p: pair) = p.1
}

def main (x: i32) : (i32, i64) = (ints.ops.double (ints.plus ints.zero x), ints.count (x, 3))
