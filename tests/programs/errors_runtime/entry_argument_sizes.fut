-- The sizes that the parameter types of an entry point fix are checked when
-- it is called: a size expression over another parameter, another
-- parameter itself, a constant, sizes that two parameters share, and a
-- size that the body fixes.
-- ==
-- entry: plus_one
-- input { 2i64 [1, 2, 3] }
-- output { 6 }
-- input { 2i64 [1, 2] }
-- error: [Ss]ize|invalid

-- ==
-- entry: exactly
-- input { 2i64 [1, 2] }
-- output { [2, 4] }
-- input { 3i64 [1, 2] }
-- error: [Ss]ize|invalid

-- ==
-- entry: constant
-- input { [1, 2, 3] }
-- output { 6 }
-- input { [1, 2, 3, 4] }
-- error: [Ss]ize|invalid

-- ==
-- entry: shared
-- input { [1, 2] [3, 4] }
-- output { [1, 2] [3, 4] }
-- input { [1] [3, 4] }
-- error: [Ss]ize|invalid

-- ==
-- entry: fixed_by_body
-- input { [1, 2] }
-- output { [1, 2] }
-- input { [1, 2, 3] }
-- error: [Ss]ize|invalid

def three : i64 = 3

def scale (n: i64) (xs: [n]i32) : [n]i32 = map (* 2) xs

def pair 't (x: t) (y: t) = (x, y)

entry plus_one (x: i64) (xs: [x + 1]i32) : i32 = i32.sum xs

entry exactly (n: i64) (xs: []i32) : []i32 = scale n xs

entry constant (xs: [three]i32) : i32 = i32.sum xs

entry shared (xs: []i32) (ys: []i32) : ([]i32, []i32) = pair xs ys

entry fixed_by_body (xs: []i32) : [2]i32 = xs
