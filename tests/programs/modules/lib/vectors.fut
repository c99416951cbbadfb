-- A helper for import_module.fut: a file imported as a module.

module type vector = {
  type t
  val dot [n] : [n]t -> [n]t -> t
}

module f32_vector : vector with t = f32 = {
  type t = f32
  def dot [n] (xs: [n]f32) (ys: [n]f32) = f32.sum (map2 (*) xs ys)
}

def scale (k: f32) (xs: []f32) = map (* k) xs
