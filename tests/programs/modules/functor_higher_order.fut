-- A parametric module whose parameter is parametric, and a module type
-- with a parametric module specification.
-- ==
-- input { 1 } output { 4 5 }

module type step = {
  type a
  val f : a -> a
}

module apply_twice (G: (P: step) -> {val g : P.a -> P.a}) (X: step) = {
  open (G X)
}

module via_twice (P: step) = {
  def g (x: P.a) = P.f (P.f x)
}

module type has_maker = {
  module make : (P: step) -> {val g : P.a -> P.a}
}

module maker : has_maker = {
  module make (P: step) = {
    def g (x: P.a) = P.f (P.f (P.f x))
    def unused = 0i32
  }
}

module inc = { type a = i32 def f (x: i32) = x + 1 }
module twice_inc = apply_twice via_twice inc
module thrice_inc = maker.make inc
module composed = apply_twice maker.make inc

def main (x: i32) : (i32, i32) = (twice_inc.g (twice_inc.g x) - 1, composed.g (thrice_inc.g x) - 2)
