-- Indices of any integer type: a lambda parameter used as an index takes
-- the type of the array mapped over (i32 here, u8 below), and a loop
-- counter whose bound is a literal takes the type of the element it is
-- stored into. Out-of-range indices of any type fail as i64 ones do.
-- ==
-- entry: gather
-- input { [10, 20, 30] [2, 0, 1] [1u8, 1u8] }
-- output { [30, 10, 20] [20, 20] }
-- input { [10, 20, 30] [3, 0, 1] [1u8, 1u8] }
-- error: [Ii]ndex|bounds
-- input { [10, 20, 30] [-1, 0, 1] [1u8, 1u8] }
-- error: [Ii]ndex|bounds
-- ==
-- entry: counter
-- input { [5, 5, 5, 5] }
-- output { [0, 1, 2, 3] }

entry gather (xs: []i32) (is: []i32) (us: []u8) : ([]i32, []i32) =
  (map (\i -> xs[i]) is, map (\u -> xs[u]) us)

entry counter (xs: *[4]i32) : [4]i32 =
  loop xs for i < 4 do
    let xs[i] = i in xs
