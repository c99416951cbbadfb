-- Rows made by concatenation, read element by element by a map over the
-- flat positions (compiler/lower/irregular.c, elem_at of a concat: the
-- part that holds the position's element, in a branch of its own):
-- parts that are iotas, maps, replicates, literals and slices of an
-- argument, empty parts, three parts, rows of two dimensions. No loop
-- runs over the rows: the loops are the binary searches that find a
-- position's row (two for each map over positions).
-- ==
-- entry: three
-- input { [2i64, 0i64, 3i64] [7i64, 8i64, 9i64] }
-- output { [0i64, 2i64, 2i64, 2i64, 7i64, 8i64, 0i64, 0i64, 0i64, 2i64, 4i64, 3i64, 3i64, 7i64, 8i64, 9i64] }
-- input { empty([0]i64) [1i64] }
-- output { empty([0]i64) }

-- ==
-- entry: pairs
-- input { [1i64, 0i64, 2i64] }
-- output { [[0i64, 1i64], [5i64, 5i64], [5i64, 5i64], [0i64, 1i64], [1i64, 2i64], [5i64, 5i64]] }
-- structure gpu { Host 0 Concat 0 Loop 4 }

entry three (ns: []i64) (xs: []i64) : []i64 =
  flatten (map (\n -> map (* 2) (iota n) ++ replicate 2 n ++ xs[:n]) ns)

entry pairs (ns: []i64) : [][2]i64 =
  flatten (map (\n -> map (\i -> [i, i + 1]) (iota n) ++ replicate 1 [5, 5]) ns)
