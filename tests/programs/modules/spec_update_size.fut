-- A parameter indexed or updated before its type is known gets a size to
-- be inferred, as a parameter's [] does: `set` below returns an array of
-- its argument's size, and so matches a specification [length]a ->
-- [length]a (the vector package's any_vector, which futhark-benchmarks'
-- n-body and ray tracers use).
-- ==
-- input { 2i64 7 }
-- output { [0, 0, 7, 0] 7 }

module type vec = {
  type vector 'a
  val length : i64
  val set 'a : i64 -> a -> vector a -> vector a
  val get 'a : i64 -> vector a -> a
  val from_array 'a : [length]a -> vector a
  val to_array 'a : vector a -> [length]a
}

module any_vec (P: { val length : i64 }) : vec = {
  def length = P.length
  type vector 'a = [length]a
  def set (i: i64) v a = copy a with [i] = v
  def get (i: i64) a = a[i]
  def from_array = id
  def to_array = id
}

module v4 = any_vec { def length = 4i64 }

def main (i: i64) (x: i32) : ([4]i32, i32) =
  let v = v4.set i x (v4.from_array (replicate 4 0))
  in (v4.to_array v, v4.get i v)
