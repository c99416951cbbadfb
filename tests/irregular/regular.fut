-- Where an array of rows of one size is needed (a transpose, an entry
-- point's result, a function whose parameter names the rows' size, a
-- branch whose other arm is regular, a loop whose body makes it regular),
-- an irregular array must be one, as Futhark requires of every map's rows.
-- ==
-- entry: transposed
-- input { [2i64, 2i64] }
-- output { [[0i64, 0i64], [1i64, 1i64]] }
-- input { [2i64, 3i64] }
-- error: differ in size
-- input { empty([0]i64) }
-- output { empty([0][0]i64) }

-- ==
-- entry: returned
-- input { [3i64, 3i64] }
-- output { [[0i64, 1i64, 2i64], [0i64, 1i64, 2i64]] }
-- input { [3i64, 1i64] }
-- error: differ in size

-- ==
-- entry: passed
-- input { [2i64, 2i64, 2i64] }
-- output { 2i64 }
-- input { [2i64, 1i64, 2i64] }
-- error: differ in size

entry transposed (ns: []i64) = transpose (map (\n -> iota n) ns)

entry returned (ns: []i64) = map (\n -> iota n) ns

def width [n][m] (_: [n][m]i64) : i64 = m

entry passed (ns: []i64) = width (map (\n -> iota n) ns)

-- ==
-- entry: chosen
-- input { true [2i64, 2i64] }
-- output { [0i64, 1i64, 0i64, 1i64] }
-- input { false [2i64, 2i64] }
-- output { [0i64, 1i64, 2i64, 0i64, 1i64, 2i64] }
-- input { true [2i64, 3i64] }
-- error: differ in size
-- input { false [2i64, 3i64] }
-- output { [0i64, 1i64, 2i64, 0i64, 1i64, 2i64] }

-- ==
-- entry: looped
-- input { [2i64, 2i64] 3i64 }
-- output { [3i64, 4i64, 3i64, 4i64] }
-- input { [2i64, 1i64] 3i64 }
-- error: differ in size

entry chosen (c: bool) (ns: []i64) =
  flatten (if c then map (\n -> iota n) ns else replicate (length ns) (iota 3))

entry looped (ns: []i64) (k: i64) =
  flatten (loop a = map (\n -> iota n) ns for _i < k do transpose (transpose (map (\r -> map (+ 1) r) a)))
