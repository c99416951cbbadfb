-- A module sealed by a module type with an abstract type: outside the
-- module only its operations reach the representation.
-- ==
-- input { 5 } output { 7 }
-- input { -1 } output { 1 }

module type counter = {
  type t
  val zero : t
  val bump : t -> t
  val value : t -> i32
}

module counter : counter = {
  type t = {count: i32}
  def zero : t = {count = 0}
  def bump (c: t) : t = {count = c.count + 1}
  def value (c: t) = c.count
}

def main (x: i32) : i32 =
  let c = counter.bump (counter.bump counter.zero)
  in counter.value c + x
