-- futhorc's type checker accepts an array whose size it does not know (a
-- filter's result) where a type gives a size, and Futhark's rejects these
-- programs; run-time checks catch the difference: a function's arguments
-- and result must have the sizes of its parameter and return types, the
-- rows of an array literal the shape of the first row, and scatter needs
-- as many values as indices.
-- ==
-- entry: argument
-- input { 2i64 [1, -2, 3] }
-- output { [2, 6] }
-- input { 3i64 [1, -2, 3] }
-- error: [Ss]ize|[Ss]hape|cannot match

-- ==
-- entry: result
-- input { [1, 2] }
-- output { [1, 2] }
-- input { [1, -2] }
-- error: [Ss]ize|[Ss]hape|cannot match

-- ==
-- entry: literal
-- input { [1, 2, 3] }
-- output { [[1, 2, 3], [1, 2, 3]] }
-- input { [1, -2, 3] }
-- error: [Ss]ize|[Ss]hape|differs

-- ==
-- entry: scattered
-- input { [0i64, 1i64] [5, 6] }
-- output { [5, 6, 0] }
-- input { [0i64, 1i64] [5, 6, 7] }
-- error: 2 indices but 3 values

def scale (n: i64) (xs: [n]i32) : [n]i32 = map (* 2) xs

def positives [n] (xs: [n]i32) : [n]i32 = filter (> 0) xs

entry argument (n: i64) (xs: []i32) : []i32 = scale n (filter (> 0) xs)

entry result (xs: []i32) : []i32 = positives xs

entry literal (xs: []i32) : [][]i32 = [filter (> 0) xs, xs]

entry scattered (is: []i64) (vs: []i32) : []i32 = scatter (replicate 3 0) is (filter (>= 0) vs)
