-- Size coercions to types written with abbreviations, and to tuples of
-- arrays (here inside an array literal, whose rows must then have the
-- same shape), are checked like any other.
-- ==
-- entry: to_abbreviation
-- input { [1, 2, 3] }
-- output { [1, 2, 3] }
-- input { [1, 2] }
-- error: [Ss]ize|[Ss]hape|cannot match

-- ==
-- entry: to_tuple
-- input { [1] [2, 3] }
-- output { [[1], [5]] [[2, 3], [6, 7]] }
-- input { [1, 2] [3] }
-- error: [Ss]ize|[Ss]hape|cannot match

type vec [n] = [n]i32

entry to_abbreviation (xs: []i32) : []i32 = xs :> vec [3]

entry to_tuple (xs: []i32) (ys: []i32) : ([][]i32, [][]i32) =
  unzip [(xs, ys) :> ([1]i32, [2]i32), ([5], [6, 7])]
