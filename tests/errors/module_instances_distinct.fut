-- Each application of a parametric module that seals its result has its
-- own abstract type.
-- ==
-- error: 15:28: error: Cannot apply "b.get" to ".a.make x." .invalid type.. Couldn't match expected type b.t with actual type a.t

module mk (P: {}) : {type t val make : i32 -> t val get : t -> i32} = {
  type t = i32
  def make (x: i32) = x
  def get (x: t) = x
}

module a = mk {}
module b = mk {}

def main (x: i32) = b.get (a.make x)
