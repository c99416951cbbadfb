-- A pipeline's result is as unique as its last function's: a definition
-- without a return type whose body ends in `|> map f` (or starts with
-- `f <|`) returns a fresh array, which a caller may return as unique or
-- update in place, as with `map f xs` written directly. Sizes carry
-- through the pipe as through an application.
-- ==
-- input { [3, 1, 2] }
-- output { [4, 0, 3] [16, 8, 12] 3i64 }

def incr (xs: []i32) = xs |> map (+ 1)
def double (xs: []i32) = map (* 2) <| incr xs
def fresh (xs: []i32) : *[]i32 = incr xs
def twice [n] (xs: [n]i32) : [n]i32 = xs |> map (* 2)

entry main (xs: []i32) =
  let ys = fresh xs
  let ys[1] = 0
  let zs = twice (double xs)
  in (ys, map2 (+) zs (xs |> map (\_ -> 0)), length (xs |> twice))
