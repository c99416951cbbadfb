-- Irregular arrays in and out of entry points, as the prelude's
-- `irregular [n] t` record (futhorc-irregular(7)): the rows' elements one
-- after another, then each row's length, in the data formats (an opaque
-- value in the C API: tests/library/opaque_test.c). to_irregular and
-- from_irregular convert without making the rows regular; sizes that are
-- negative or do not add up to the elements are errors.
-- ==
-- entry: triangle
-- input { 4i64 }
-- output { [0i64, 0i64, 1i64, 0i64, 1i64, 2i64, 0i64, 1i64, 2i64, 3i64] [1i64, 2i64, 3i64, 4i64] }
-- input { 0i64 }
-- output { empty([0]i64) empty([0]i64) }

-- ==
-- entry: sums
-- input { [5i64, 6i64, 7i64, 8i64] [1i64, 0i64, 3i64] }
-- output { [5i64, 0i64, 21i64] }
-- input { [5i64, 6i64, 7i64] [1i64, 1i64] }
-- error: add up to 2, not to the 3 elements
-- input { [5i64, 6i64, 7i64] [4i64, -1i64] }
-- error: negative size

-- ==
-- entry: doubled
-- input { [1f32, 2f32, 3f32] [0i64, 3i64, 0i64] }
-- output { [2f32, 4f32, 6f32] [0i64, 3i64, 0i64] }
-- input { empty([0]f32) empty([0]i64) }
-- output { empty([0]f32) empty([0]i64) }

-- ==
-- entry: filtered
-- input { [3i64, -1i64, 4i64, -1i64, -5i64] [2i64, 3i64] }
-- output { [3i64, 4i64] [1i64, 1i64] }

-- ==
-- entry: regular
-- input { 2i64 3i64 }
-- output { [0i64, 1i64, 2i64, 3i64, 4i64, 5i64] [3i64, 3i64] }

-- ==
-- entry: blocks
-- input { [2i64, 0i64, 1i64] }
-- output { [[2i64, 1i64], [2i64, 1i64], [1i64, 1i64]] [2i64, 0i64, 1i64] }

-- ==
-- entry: tuple_sums
-- input { [1i64, 2i64, 3i64] [0.5f32, 1f32, 2f32] [2i64, 1i64] }
-- output { [3i64, 3i64] [1.5f32, 2f32] }

-- ==
-- entry: pairs
-- input { [1i64, 2i64] }
-- output { [0i64, 0i64, 1i64] [1f32, 1f32, 1f32] [1i64, 2i64] }

entry triangle (n: i64) : irregular [n] i64 = to_irregular (map (\i -> iota (i + 1)) (iota n))

entry sums [n] (x: irregular [n] i64) : [n]i64 = map i64.sum (from_irregular x)

entry doubled [n] (x: irregular [n] f32) : irregular [n] f32 =
  to_irregular (map (\r -> map (* 2) r) (from_irregular x))

entry filtered [n] (x: irregular [n] i64) : irregular [n] i64 =
  to_irregular (map (\r -> filter (> 0) r) (from_irregular x))

entry regular (n: i64) (m: i64) : irregular [n] i64 = to_irregular (tabulate_2d n m (\i j -> i * m + j))

entry blocks (ks: []i64) = to_irregular (map (\k -> replicate k [k, 1]) ks)

entry pairs (ns: []i64) : irregular [] (i64, f32) =
  to_irregular (map (\n -> zip (iota n) (replicate n 1f32)) ns)

entry tuple_sums [n] (x: irregular [n] (i64, f32)) : ([n]i64, [n]f32) =
  unzip (map (\r -> (i64.sum (map (.0) r), f32.sum (map (.1) r))) (from_irregular x))
