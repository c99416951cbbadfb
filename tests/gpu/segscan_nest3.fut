-- A map of a map of a scan is one segmented SegScan over the three levels:
-- each innermost row is a segment. Entry big compares generated rows
-- (long rows across work-groups, many short rows) with a closed form.
-- ==
-- structure gpu { SegScan 2 }
-- input { [[[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]], [[-1i32, 0i32, 1i32], [9i32, 9i32, 9i32]]] }
-- output { [[[1i32, 3i32, 6i32], [4i32, 9i32, 15i32]], [[-1i32, -1i32, 0i32], [9i32, 18i32, 27i32]]] }
-- input { [[[5i32]]] }
-- output { [[[5i32]]] }
-- input { empty([2][0][3]i32) }
-- output { empty([2][0][3]i32) }
-- input { empty([2][3][0]i32) }
-- output { empty([2][3][0]i32) }

-- ==
-- entry: big
-- input { 2i64 3i64 50000i64 }
-- output { true }
-- input { 1000i64 70i64 3i64 }
-- output { true }
-- input { 3i64 5i64 4099i64 }
-- output { true }
-- input { 4i64 0i64 3i64 }
-- output { true }

entry main [a][b][c] (xsss: [a][b][c]i32) : [a][b][c]i32 = map (map (scan (+) 0)) xsss

entry big (a: i64) (b: i64) (c: i64) : bool =
  let ys = map (\i -> map (\j -> scan (+) 0 (map (\k -> i + j + k) (iota c))) (iota b)) (iota a)
  let ref = tabulate_3d a b c (\i j k -> (k + 1) * (i + j) + k * (k + 1) / 2)
  in and (map2 (==) (flatten (flatten ys)) (flatten (flatten ref)))
