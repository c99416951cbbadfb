-- A pipe whose function's sizes are named by local bindings: the sizes
-- of `cs |> unflatten` (bs and bn, from the let above) are computed where
-- the pipe is written, as for an application (they were looked up among
-- the entry point's parameters only, and bs was not found). diku-dk/sorts'
-- bucket sort writes its offsets so.
-- ==
-- input { 2i64 3i64 }
-- output { [[0i64, 1i64, 2i64], [0i64, 1i64, 2i64]] [[0i64, 3i64], [1i64, 4i64], [2i64, 5i64]] }

entry main (nb: i64) (bn: i64) =
  let bs = nb + 0
  let cs = tabulate bn (\i -> replicate bs i)
  let flat = transpose cs |> flatten
  let back = flat |> unflatten
  let idx = iota (bs * bn) |> unflatten |> transpose
  in (back, idx)
