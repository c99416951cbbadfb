-- Several entry points in one program, each with its own test block.
-- ==
-- entry: double
-- input { [1, 2, 3] }
-- output { [2, 4, 6] }

-- ==
-- entry: total
-- input { [1, 2, 3] }
-- output { 12 }
-- input { empty([0]i32) }
-- output { 0 }

-- ==
-- entry: stats
-- input { [2.5f64, -1.0f64, 7.0f64] }
-- output { -1.0f64 7.0f64 }

def helper (x: i32) : i32 = x * 2

entry double (xs: []i32) : []i32 = map helper xs

entry total (xs: []i32) : i32 = reduce (+) 0 (map helper xs)

entry stats (xs: []f64) : (f64, f64) = (f64.minimum xs, f64.maximum xs)
