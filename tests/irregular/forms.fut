-- Irregular arrays through the language's other forms: captured by a
-- lambda, of tuples and records, rows in an array literal, maps whose
-- rows are reversed, scanned or filtered, a match and an if choosing
-- between two of them (irregular still: the branch returns the chosen
-- one's descriptor), loops that carry one (for and while loops, rows
-- growing in each iteration), and functions whose parameters leave the
-- rows' size anonymous ([n][]t, [][]t), which take and return one.
-- ==
-- entry: captured
-- input { [2i64, 3i64, 0i64] }
-- output { [2i64, 3i64, 0i64] }

-- ==
-- entry: tuples records
-- input { [2i64, 3i64, 0i64] }
-- output { [0i64, 1i64, 0i64, 1i64, 2i64] [2i64, 3i64, 0i64] }

-- ==
-- entry: literal
-- input { [2i64, 3i64, 0i64] }
-- output { [0i64, 1i64, 0i64, 1i64] }

-- ==
-- entry: reversed
-- input { [2i64, 3i64, 0i64] }
-- output { [1i64, 0i64, 2i64, 1i64, 0i64] }

-- ==
-- entry: scanned
-- input { [2i64, 3i64, 0i64] }
-- output { [0i64, 1i64, 0i64, 1i64, 3i64] }

-- ==
-- entry: filtered
-- input { [2i64, 3i64, 0i64] }
-- output { [1i64, 1i64, 2i64] }

-- ==
-- entry: matched
-- input { true [2i64, 2i64] }
-- output { [0i64, 1i64, 0i64, 1i64] }
-- input { false [2i64, 3i64] }
-- output { [0i64, 1i64, 2i64, 0i64, 1i64, 2i64, 3i64] }

-- ==
-- entry: looped
-- input { [2i64, 1i64] 3i64 }
-- output { [3i64, 4i64, 3i64] }
-- input { [2i64, 1i64] 0i64 }
-- output { [0i64, 1i64, 0i64] }

-- ==
-- entry: grown
-- input { [1i64, 0i64] 2i64 }
-- output { [0i64, 0i64, 1i64, 0i64, 1i64] [3i64, 2i64] }

-- ==
-- entry: doubled
-- input { [3i64, 0i64, 1i64] 2i64 }
-- output { [0i64, 4i64, 8i64, 0i64] 2i64 }

-- ==
-- entry: unsized
-- input { [3i64, 1i64] }
-- output { [3i64, 0i64] }

-- ==
-- entry: sized
-- input { [3i64, 1i64, 0i64] }
-- output { [6i64, 1i64, 0i64] [1i64, 2i64, 3i64, 1i64] 3i64 }
-- input { [2i64, 2i64] }
-- output { [3i64, 3i64] [1i64, 2i64, 1i64, 2i64] 2i64 }

-- ==
-- entry: branched
-- input { true [2i64, 3i64, 0i64] }
-- output { [1i64, 3i64, 0i64] [0i64, 1i64, 0i64, 1i64, 2i64] }
-- input { false [2i64, 3i64, 0i64] }
-- output { [6i64, 12i64, 0i64] [0i64, 2i64, 4i64, 0i64, 2i64, 4i64, 6i64, 0i64] }

entry captured (ns: []i64) =
  let irr = map (\n -> iota n) ns
  in map (\i -> length irr[i]) (iota (length irr))

entry tuples (ns: []i64) =
  let irr = map (\n -> (iota n, n)) ns
  in (flatten (map (.0) irr), map (.1) irr)

entry records (ns: []i64) =
  let irr = map (\n -> {a = iota n, b = n}) ns
  in (flatten (map (.a) irr), map (.b) irr)

entry literal (ns: []i64) =
  let irr = map (\n -> iota n) ns
  in flatten [irr[0], irr[0]]

entry reversed (ns: []i64) = flatten (map reverse (map (\n -> iota n) ns))

entry scanned (ns: []i64) = flatten (map (\r -> scan (+) 0 r) (map (\n -> iota n) ns))

entry filtered (ns: []i64) = flatten (map (\r -> filter (> 0) r) (map (\n -> iota n) ns))

type pick = #same | #more

entry matched (c: bool) (ns: []i64) =
  flatten (match (if c then #same else #more) : pick
           case #same -> map (\n -> iota n) ns
           case #more -> map (\n -> iota (n + 1)) ns)

entry branched (c: bool) (ns: []i64) =
  let irr = if c then map (\n -> iota n) ns else map (\n -> map (* 2) (iota (n + 1))) ns
  in (map i64.sum irr, flatten irr)

entry looped (ns: []i64) (k: i64) =
  flatten (loop a = map (\n -> iota n) ns for _i < k do map (\r -> map (+ 1) r) a)

entry grown (ns: []i64) (k: i64) =
  let a = loop a = map (\n -> iota n) ns for i < k do map (\r -> r ++ [i]) a
  in (flatten a, map length a)

entry doubled (ns: []i64) (k: i64) =
  let (a, j) = loop (a, j) = (map (\n -> iota n) ns, 0) while j < k do (map (\r -> map (* 2) r) a, j + 1)
  in (flatten a, j)

def sums (rows: [][]i64) = map i64.sum rows

def bumped [n] (rows: [n][]i64) : [n][]i64 = map (\r -> map (+ 1) r) rows

def sized_sums [n] (rows: [n][]i64) : [n]i64 = map i64.sum rows

entry unsized (ns: []i64) = sums (map (\n -> iota n) ns)

entry sized (ns: []i64) =
  let b = bumped (map (\n -> iota n) ns)
  in (sized_sums b, flatten b, length b)
