-- Entry points whose value is a function take that function's
-- parameters, as in Futhark: a partial application, a composition, a
-- lambda returned after written parameters, and an annotated arrow type
-- whose named parameter gives a result size.
-- ==
-- entry: ceil
-- input { [1.5f64, -2.2f64, 3f64] }
-- output { [2f64, -2f64, 3f64] }

-- ==
-- entry: partial
-- input { 7 }
-- output { 17 }

-- ==
-- entry: composed
-- input { [1, 2, 3] }
-- output { 9 }
-- input { empty([0]i32) }
-- output { 0 }

-- ==
-- entry: added
-- input { [1, 2] [30, 40] }
-- output { [31, 42] }

-- ==
-- entry: counted
-- input { 4i64 }
-- output { [0i64, 1i64, 2i64, 3i64] }

-- ==
-- entry: pairs
-- input { 3 [1, 2] }
-- output { [4, 5] [3, 6] }

entry ceil = map f64.ceil

def ten_times_plus (a: i32) (b: i32) = a * 10 + b
entry partial = ten_times_plus 1

entry composed = map (+ 1) >-> i32.sum

entry added (xs: []i32) = \(ys: []i32) -> map2 (+) xs ys

entry counted : (n: i64) -> [n]i64 = iota

def both (k: i32) (xs: []i32) = (map (+ k) xs, map (* k) xs)
entry pairs = both
