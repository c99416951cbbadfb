-- The rows of an irregular array: flattened, indexed, their number, and
-- maps over them, with empty rows among them.
-- ==
-- entry: flat
-- input { [3i64, 0i64, 2i64] }
-- output { [0i64, 1i64, 2i64, 0i64, 1i64] }
-- input { [0i64, 0i64] }
-- output { empty([0]i64) }

-- ==
-- entry: sums
-- input { [3i64, 0i64, 2i64] }
-- output { [3i64, 0i64, 1i64] 3i64 [0i64, 1i64] }

-- ==
-- entry: indexed
-- input { [2i64, 3i64] 1i64 }
-- output { 2i64 }
-- input { [2i64, 3i64] 0i64 }
-- error: [Oo]ut of bounds
-- input { [2i64, 3i64] -1i64 }
-- error: [Oo]ut of bounds

-- ==
-- entry: row
-- input { [2i64, 3i64] 2i64 }
-- error: [Oo]ut of bounds

-- ==
-- entry: empty
-- input { empty([0]i64) }
-- output { empty([0]i64) 0i64 }

-- ==
-- entry: zipped
-- input { [3i64, 1i64] [10i64, 20i64] }
-- output { [13i64, 21i64] }
-- input { [3i64, 1i64] [10i64] }
-- error: zip

entry flat (ns: []i64) = flatten (map (\n -> iota n) ns)

entry sums (ns: []i64) =
  let irr = map (\n -> iota n) ns
  in (map (\r -> reduce (+) 0 r) irr, length irr, irr[2])

entry indexed (ns: []i64) (i: i64) = (map (\n -> iota n) ns)[i, 2]

entry row (ns: []i64) (i: i64) = (map (\n -> iota n) ns)[i]

entry empty (ns: []i64) =
  let irr = map (\n -> iota n) ns
  in (flatten irr, length irr)

entry zipped (ns: []i64) (ks: []i64) =
  map2 (\r k -> r[length r - 1] + k + 1) (map (\n -> iota n) ns) ks
