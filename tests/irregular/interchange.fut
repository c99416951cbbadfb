-- Maps whose function runs a loop over arrays that differ in size between
-- the elements, or between the iterations: the loop is interchanged with
-- the map
-- (compiler/lower/interchange.c), so that each iteration is a map over
-- all elements (flattened: filters, concatenations and maps of irregular
-- rows) and nothing runs element after element on the host. The loop at
-- the end of the function or in one of its lets, with code after it (its
-- value then read row by row); scalars carried with the arrays; a bound of
-- another integer type; a `for k in ks` loop over an array from outside
-- the map; a map over the rows of an irregular array; no
-- iterations and no elements; failures inside the loop. (A loop whose
-- size changes although it is the same for every element:
-- tests/programs/sizes/coercion_in_map.fut.)
-- ==
-- entry: looped
-- input { [5i64, 0i64, 1i64, 4i64] }
-- output { [0i64, 2i64, 4i64, 2i64, 4i64, 0i64, 0i64, 2i64, 2i64, 4i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }
-- structure gpu { Host 0 }

-- ==
-- entry: after
-- input { 2i64 [3i64, 0i64, 1i64] }
-- output { [17i64, 0i64, 1i64] [2i64, 3i64, 4i64, 5i64, 6i64, 0i64, 2i64] }
-- input { 0i64 [2i64, 1i64] }
-- output { [8i64, 2i64] [0i64, 1i64, 2i64, 3i64, 4i64, 0i64, 1i64, 2i64] }
-- input { 7i64 [2i64, 1i64] }
-- output { [2i64, 1i64] [4i64, 2i64] }
-- input { 1i64 empty([0]i64) }
-- output { empty([0]i64) empty([0]i64) }

-- ==
-- entry: carried
-- input { 3 [2i64, 1i64, 3i64] }
-- output { [7i64, 4i64, 10i64] [1i64, 1i64, 2i64, 3i64, 3i64, 1i64, 2i64, 3i64, 4i64, 1i64, 1i64, 1i64, 2i64, 3i64, 3i64] }
-- input { 0 [2i64, 3i64] }
-- output { [0i64, 0i64] [1i64, 1i64, 1i64, 1i64, 1i64] }
-- input { 3 [2i64, 0i64] }
-- error: out of bounds

-- ==
-- entry: over_rows
-- input { [4i64, 0i64, 2i64, 3i64] }
-- output { [4i64, 8i64, 12i64, 4i64, 4i64, 8i64] }

-- ==
-- entry: over
-- input { [2i64, 3i64] [5i64, 0i64, 7i64] }
-- output { [1i64, 2i64, 3i64, 2i64, 3i64, 1i64, 5i64, 2i64, 3i64] }
-- input { empty([0]i64) [3i64, 1i64] }
-- output { [0i64, 1i64, 2i64, 0i64] }

-- Counts that differ between the elements: the loop runs the largest
-- count, each element's body masked past its own (its rows read through
-- the mask's if); from an empty array and from rows of one size (carried
-- irregular from the start), a count of another type and negative, an
-- array of the element's own length. A body that is not read by
-- position (a scan whose operator reads a value of the element) is left
-- to run element after element (scanned).
-- ==
-- entry: grow
-- input { [3i64, 0i64, 4i64, 1i64] }
-- output { [0i64, 1i64, 4i64, 0i64, 1i64, 4i64, 9i64, 0i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }

-- ==
-- entry: own
-- input { [3i64, 0i64, 4i64, 1i64] }
-- output { [0i64, 1i64, 2i64, 0i64, 1i64, 2i64, 3i64, 0i64, 0i64, 0i64] }

-- ==
-- entry: halves
-- input { [3i64, 0i64, 4i64, 1i64] }
-- output { [0i64, 1i64, 2i64, 1i64, 2i64, 3i64, 4i64, 0i64] }

-- ==
-- entry: neg
-- input { [3i32, 0i32, 5i32] }
-- output { [0i32, 0i32, 0i32, 0i32, 0i32, 1i32, 2i32] }

-- ==
-- entry: scanned
-- input { [3i64, 0i64, 4i64, 5i64] }
-- output { [0i64, 1i64, 3i64, 1i64, 2i64, 0i64, 1i64, 1i64, 2i64, 5i64, 5i64, 3i64] }

-- ==
-- entry: failing
-- input { [3i64, 4i64] }
-- output { [2i64] }
-- input { [3i64, 2i64] }
-- error: division by zero

entry looped (ns: []i64) =
  flatten (map (\n -> loop (r: []i64) = iota n for _i < 2 do
                        filter (\x -> x % 2 == 0) r ++ map (+ 1) (filter (\x -> x % 2 == 1) r))
               ns)

entry after (k: i64) (ns: []i64) =
  let rs = map (\n -> let m = n * 2
                      let r = loop r = iota m for i < k do filter (> i) r
                      in (i64.sum r + n, r ++ [m]))
               ns
  in (map (.0) rs, flatten (map (.1) rs))

entry carried (k: i32) (ns: []i64) =
  let rs = map (\n -> loop (c, r) = (0i64, replicate n 1i64) for i < k do
                        (c + length r, r ++ map (+ i64.i32 i) (take (i64.i32 i) r)))
               ns
  in (map (.0) rs, flatten (map (.1) rs))

entry over_rows (ns: []i64) =
  let a = map (\n -> iota n) ns
  in flatten (map (\r -> loop r for i < 2 do map (* 2) (filter (> i) r)) a)

entry over (ks: []i64) (ns: []i64) =
  flatten (map (\n -> loop r = iota n for k in ks do filter (\x -> x % k != 0) r ++ [k]) ns)

entry grow (ns: []i64) = flatten (map (\n -> loop acc = [] for i < n do acc ++ [i * i]) ns)

entry own (ns: []i64) = flatten (map (\n -> loop r = iota n for k in iota (n % 3) do r ++ [k]) ns)

entry halves (ns: []i64) = flatten (map (\n -> loop r = iota n for i < n / 2 do map (+ i) r) ns)

entry neg (ns: []i32) = flatten (map (\n -> loop acc = [0i32] for i < n - 2 do acc ++ [i]) ns)

entry scanned (ns: []i64) =
  flatten (map (\n -> loop r = iota n for i < n / 2 do scan (\a b -> (a + b) % (n + 1)) i r) ns)

entry failing (ns: []i64) =
  flatten (map (\n -> loop r = iota n for i < 2 do map (\x -> x / (n - 2)) (filter (> i) r)) ns)
