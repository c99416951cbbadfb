-- A functor's definition without a declared return type whose result
-- pairs a value of the argument's abstract type with a fresh (unique)
-- array: the inferred uniqueness must keep the abstract type, or the
-- definition no longer matches its specification (as cpprandom's
-- shuffle_order_engine, which several futhark-benchmarks programs use).
-- ==
-- input { 1 }
-- output { 5 }

module type engine = {
  type rng
  val make : i32 -> rng
  val next : rng -> (rng, i32)
}

module base : engine = {
  type rng = i32
  def make (x: i32) = x
  def next (r: rng) = (r + 1, r)
}

module table (E: engine) : engine = {
  type rng = (E.rng, [3]i32)
  def make (x: i32) =
    let xs = replicate 3 0
    in loop (r, xs) = (E.make x, xs) for i < 3 do
         let (r, v) = E.next r
         in (r, xs with [i] = v)
  def next ((r, xs): rng) =
    let (r, v) = E.next r
    in ((r, xs), v + xs[0])
}

module t = table base

def main (x: i32) : i32 =
  let (_, v) = t.next (t.make x)
  in v
