-- An if whose branches give differently laid out arrays (a transposition,
-- a reversed slice): the result's offset and strides are existential, so
-- neither branch copies.
-- ==
-- input { true [[1, 2, 3], [4, 5, 6], [7, 8, 9]] [[10, 20, 30], [40, 50, 60], [70, 80, 90]] }
-- output { [[2, 5, 8], [3, 6, 9], [4, 7, 10]] [2, 5, 8] }
-- input { false [[1, 2, 3], [4, 5, 6], [7, 8, 9]] [[10, 20, 30], [40, 50, 60], [70, 80, 90]] }
-- output { [[71, 81, 91], [41, 51, 61], [11, 21, 31]] [40, 50, 60] }

def main [n] (c: bool) (a: [n][n]i32) (b: [n][n]i32) : ([n][n]i32, [n]i32) =
  let x = if c then transpose a else b[::-1] :> [n][n]i32
  in (map (map (+1)) x, x[1])
