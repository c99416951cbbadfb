-- ==
-- error: 10:27: error: Cannot apply "m.get" to "x" .invalid type.. Couldn't match expected type m.t with actual type i32

module m : {type t val make : i32 -> t val get : t -> i32} = {
  type t = i32
  def make (x: i32) = x
  def get (x: t) = x
}

def main (x: i32) = m.get x
