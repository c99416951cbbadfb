-- Vertical: a chain of four maps becomes one Screma.
-- ==
-- structure { Screma 1 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [1i32, 9i32, 25i32, 49i32, 81i32] }
-- input { [-3i32, 0i32, 7i32, 10i32, -8i32, 2i32] }
-- output { [49i32, 1i32, 169i32, 361i32, 289i32, 9i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }

def main (xs: []i32) : []i32 =
  xs |> map (+1) |> map (*2) |> map (\x -> x - 3) |> map (\x -> x * x)
