-- A size coercion checks a shape at run time and does not decide it: the
-- anonymous sizes of f's parameter stay size parameters (f applies to
-- [2][2] rows), and only the branch that coerces needs rows of [1][1]
-- (as in finpar's OptionPricing, whose payoff functions coerce their
-- argument to the shape each contract has).
-- ==
-- input { [[[1f32, 2f32], [3f32, 4f32]], [[-1f32, 2f32], [3f32, 4f32]]] }
-- output { [4f32, 0f32] }
-- input { [[[1f32]], [[-2f32]]] }
-- output { [1f32, 0f32] }

def f (xss: [][]f32) : f32 =
  if xss[0, 0] > 0
  then if length xss == 1 then (xss :> [1][1]f32)[0, 0] else (xss :> [2][2]f32)[1, 1]
  else 0

entry main [n][k] (a: [n][k][k]f32) : [n]f32 = map f a
