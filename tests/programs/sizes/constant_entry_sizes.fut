-- An entry parameter of type [3]i32 has exactly three elements, so its size
-- is the constant 3 everywhere: the rows that the two branches give below
-- both have size 3, and the map over them is regular. An argument of
-- another size is an error.
-- ==
-- input { true [1, 2, 3] [10, 20, 30] }
-- output { [[11, 21, 31], [12, 22, 32], [13, 23, 33]] }
-- input { false [1, 2, 3] [10, 20, 30] }
-- output { [[1, 2, 3], [1, 2, 3], [1, 2, 3]] }
-- input { true [1, 2] [10, 20, 30] }
-- error: [Ss]ize|[Ss]hape|invalid

-- ==
-- entry: rows
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [6, 15] }
-- input { [[1, 2], [4, 5]] }
-- error: [Ss]ize|[Ss]hape|invalid

def main (b: bool) (xs: [3]i32) (ys: [3]i32) : [3][3]i32 =
  map (\x -> if b then map (+ x) ys else xs) xs

entry rows (xss: [][3]i32) : []i32 = map i32.sum xss
