-- all and any with predicates on floats.
-- ==
-- input { [0.0f32, 1.5f32, 200.0f32] }
-- output { true false true }
-- input { [-1.0f32, f32.nan] }
-- output { false true false }

def main (xs: []f32) : (bool, bool, bool) =
  (all (\x -> x >= 0f32) xs, any f32.isnan xs, any (\x -> x > 100f32) xs)
