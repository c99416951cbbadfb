-- A file imported as a module: its names are reached through the module,
-- its module types can be used.
-- ==
-- input { [1f32, 2f32] [3f32, 4f32] } output { 11f32 [2f32, 4f32] }

module V = import "lib/vectors"

module checked : V.vector with t = f32 = V.f32_vector

def main (xs: []f32) (ys: []f32) : (f32, []f32) = (checked.dot xs ys, V.scale 2 xs)
