-- Irregular arrays of irregular arrays, two levels deep: a map whose
-- function returns an irregular array (of rows of scalars) makes one.
-- Each row is a range of the rows of all elements' rows (a view: the
-- descriptor's arrays sliced, the flat array shared); flatten gives all
-- those rows, flatten twice all elements. Maps over the rows, indexing,
-- rows made by filters, rows of one size (regular, checked where needed),
-- empty rows at both levels, functions whose parameters leave the sizes
-- anonymous, branches and loops that keep them irregular, and
-- to_irregular (the inner level regular). Maps over the rows whose
-- function maps over its rows keep their lengths: each element's rows
-- start where the rows it maps over do (irregular.c, kept_rows), so no
-- element makes an array and nothing runs on the host.
-- ==
-- entry: flat2
-- structure gpu { Host 0 }
-- input { [3i64, 0i64, 2i64] }
-- output { [0i64, 0i64, 1i64, 0i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

-- ==
-- entry: sums
-- input { [3i64, 0i64, 2i64] }
-- output { [0i64, 0i64, 1i64, 0i64, 0i64] [3i64, 0i64, 2i64] [1i64, 0i64, 0i64] [0i64, 1i64, 2i64, 0i64, 1i64] }

-- ==
-- entry: row
-- input { [3i64, 0i64, 2i64] 2i64 }
-- output { [0i64, 0i64, 1i64] }
-- input { [3i64, 0i64, 2i64] 0i64 }
-- output { [0i64, 0i64, 1i64, 0i64, 1i64, 2i64] }
-- input { [3i64, 0i64, 2i64] 1i64 }
-- output { empty([0]i64) }
-- input { [3i64, 0i64, 2i64] 3i64 }
-- error: out of bounds

-- ==
-- entry: filtered
-- input { [3i64, 0i64, 5i64] }
-- output { [0i64, 0i64, 0i64, 0i64, 0i64, 2i64, 0i64, 2i64] [0i64, 1i64, 1i64, 0i64, 1i64, 1i64, 2i64, 2i64] }

-- ==
-- entry: passed
-- input { [3i64, 0i64, 2i64] }
-- output { [3i64, 0i64, 2i64] [0i64, 0i64, 1i64, 0i64] }

-- ==
-- entry: chosen
-- input { true [3i64, 0i64, 2i64] }
-- output { [0i64, 0i64, 1i64, 0i64] [3i64, 0i64, 2i64] [0i64, 1i64, 2i64, 0i64, 1i64] }
-- input { false [3i64, 0i64, 2i64] }
-- output { [0i64, 0i64, 1i64, 0i64, 1i64, 2i64, 0i64, 0i64, 1i64] [3i64, 0i64, 2i64] [1i64, 2i64, 3i64, 1i64, 2i64] }

-- ==
-- entry: looped
-- input { [3i64, 0i64, 2i64] 2i64 }
-- output { [2i64, 2i64, 3i64, 2i64] [3i64, 0i64, 2i64] }

-- ==
-- entry: mapped
-- input { [3i64, 0i64, 4i64, 1i64] }
-- output { [3i64, 0i64, 4i64, 1i64] [0i64, 1i64, 2i64, 0i64, 1i64, 2i64, 3i64, 0i64] [0i64, 0i64, 3i64, 0i64, 0i64, 3i64, 0i64, 3i64, 6i64] }
-- input { [0i64, 0i64] }
-- output { [0i64, 0i64] empty([0]i64) empty([0]i64) }

-- ==
-- entry: mapped_filtered
-- input { [3i64, 0i64, 4i64, 1i64] }
-- output { [1i64, 1i64, 1i64, 1i64, 2i64, 4i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

-- Rows kept by such maps chosen by an if and carried by a loop: the value
-- of the if or loop has the starts of its own rows.
-- ==
-- entry: kept_if
-- input { false [3i64, 0i64, 4i64] 2i64 }
-- output { [0i64, 0i64, 2i64, 6i64] }
-- input { true [3i64, 0i64, 4i64] 2i64 }
-- output { [0i64, 1i64, 3i64, 6i64] }

-- ==
-- entry: kept_loop
-- input { [3i64, 0i64, 5i64] 2i64 }
-- output { [3i64, 3i64, 4i64] [0i64, 0i64, 0i64, 3i64, 7i64] [0i64, 0i64, 0i64, 1i64, 2i64] }

-- ==
-- entry: constant
-- input { 2i64 }
-- output { [0i64, 1i64, 2i64, 1i64, 2i64, 3i64] }

-- ==
-- entry: made_regular
-- input { [2i64, 2i64] }
-- output { [[[0i64, 1i64], [0i64, 1i64]], [[0i64, 1i64], [0i64, 1i64]]] }
-- input { [2i64, 1i64] }
-- error: differ in size

-- ==
-- entry: record
-- input { [2i64, 1i64] }
-- output { [[0i64, 1i64], [0i64, 1i64], [0i64, 1i64]] [2i64, 1i64] }

def nested (ns: []i64) = map (\n -> map (\i -> iota i) (iota n)) ns

entry flat2 (ns: []i64) = flatten (flatten (nested ns))

entry sums (ns: []i64) =
  let a = nested ns
  in (flatten (map (\r -> map i64.sum r) a), map length a, map (\r -> i64.sum (flatten r)) a,
      map length (flatten a))

entry row (ns: []i64) (k: i64) =
  let a = map (\n -> map (\i -> iota (i + 1)) (iota n)) ns
  in flatten a[k]

entry filtered (ns: []i64) =
  let a = map (\n -> map (\i -> filter (\x -> x % 2 == 0) (iota i)) (iota n)) ns
  in (flatten (flatten a), map length (flatten a))

entry mapped (ns: []i64) =
  let x = map (\r -> map (\s -> map (* 3) s) r) (nested ns)
  in (map length x, map length (flatten x), flatten (flatten x))

entry mapped_filtered (ns: []i64) =
  let a = map (\n -> map (\i -> filter (\x -> x % 2 == 0) (iota i)) (iota n)) ns
  in flatten (flatten (map (\r -> map (\s -> map (+ length s) s) r) a))

entry kept_if (c: bool) (ns: []i64) (k: i64) =
  let v = (nested ns)[k]
  let x = if c then map (\s -> map (+ 1) s) v else map (\s -> map (* 2) s) v
  in map i64.sum x

entry kept_loop (ns: []i64) (k: i64) =
  let v = (nested ns)[k]
  let x = loop x = map (\s -> map (+ 1) s) v for i < 2 do map (\s -> filter (> i + 1) s) x
  in (flatten x, map i64.sum x, map length x)

entry constant (k: i64) = flatten (flatten (map (\j -> unflatten_irregular [1, 2] [j, j + 1, j + 2]) (iota k)))

entry made_regular (ns: []i64) = map (\n -> map (\_ -> iota 2) (iota n)) ns

entry record (ns: []i64) = to_irregular (map (\n -> map (\_ -> iota 2) (iota n)) ns)

def lens (a: [][][]i64) = map length a

def flattened [n] (a: [n][][]i64) = flatten (flatten a)

entry passed (ns: []i64) = let a = nested ns in (lens a, flattened a)

entry chosen (c: bool) (ns: []i64) =
  let a = if c then nested ns else map (\n -> map (\i -> iota (i + 1)) (iota n)) ns
  in (flatten (flatten a), map length a, map length (flatten a))

entry looped (ns: []i64) (k: i64) =
  let a = loop a = nested ns for _i < k do map (\r -> map (\s -> map (+ 1) s) r) a
  in (flatten (flatten a), map length a)
