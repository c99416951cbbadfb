-- unflatten used as a function value takes its sizes from what its use
-- instantiated them to: `map unflatten` over rows whose size is a
-- product, and a composition `sized (i64.i32 n * i64.i32 m) >-> unflatten`
-- whose size expression converts i32 names (futhark-benchmarks'
-- micro/transpose.fut).
-- ==
-- entry: rows
-- input { 2i64 3i64 }
-- output { [[[1, 1], [2, 0], [3, -1]], [[2, 2], [3, 1], [4, 0]]] }
-- ==
-- entry: composed
-- input { 2 3 [1, 2, 3, 4, 5, 6] }
-- output { [[1, 4], [2, 5], [3, 6]] }
-- input { 2 3 [1, 2, 3, 4, 5] }
-- error: [Ss]hape|[Ss]ize

entry rows (n: i64) (m: i64) : [][][]i32 =
  tabulate n (\i -> tabulate m (\j -> [i32.i64 (i + j), i32.i64 (i - j)]) |> flatten)
  |> map unflatten
  |> map (map (map (+ 1)))

def unpack_2d (n: i32) (m: i32) = sized (i64.i32 n * i64.i32 m) >-> unflatten

entry composed (n: i32) (m: i32) (xs: []i32) : [][]i32 = unpack_2d n m xs |> transpose
