-- Existential sizes over a module's parametric type, as a result type
-- and in a module type.
-- ==
-- input { 3i64 } output { [0i64, 1i64, 2i64] 3i64 }

module vecs = {
  type vec [n] = [n]i64
}

module type maker = {
  type~ made = ?[n].vecs.vec [n]
  val make : i64 -> made
}

module m : maker = {
  type~ made = ?[n].vecs.vec [n]
  def make (k: i64) : ?[n].vecs.vec [n] = iota k
}

def main (k: i64) : ([]i64, i64) = let v = m.make k in (v, length v)
