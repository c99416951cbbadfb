-- Abstract types with type and size parameters, and value specifications
-- with type and size parameters.
-- ==
-- input { [1, 2, 3] } output { [3, 2, 1] 3i64 [1, 2, 3, 1, 2, 3] }

module type seq = {
  type vec [n] 'a
  val from [n] 'a : [n]a -> vec [n] a
  val to [n] 'a : vec [n] a -> [n]a
  val rev [n] 'a : vec [n] a -> vec [n] a
  val len [n] 'a : vec [n] a -> i64
}

module arrays : seq = {
  type vec [n] 'a = [n]a
  def from 'a (xs: []a) = xs
  def to 'a (xs: []a) = xs
  def rev [n] 'a (xs: [n]a) : [n]a = xs[::-1]
  def len [n] 'a (_: [n]a) = n
}

module type doubler = {
  type t 'a
  val wrap 'a : a -> t a
  val both 'a : t a -> (a, a)
}

module pairs : doubler = {
  type t 'a = (a, a)
  def wrap 'a (x: a) = (x, x)
  def both 'a (p: (a, a)) = p
}

def main (xs: []i32) : ([]i32, i64, []i32) =
  let v = arrays.from xs
  let (a, b) = pairs.both (pairs.wrap xs)
  in (arrays.to (arrays.rev v), arrays.len v, a ++ b)
