-- Irregular results written element by element into their flat arrays by
-- maps over the positions, without a loop over the rows: rows of two
-- dimensions (one size or both varying), rows of a map over slices and
-- rows of rows of flattened rows. The only loops are the binary searches
-- that find a position's row (two for each map over positions that needs
-- the row).
-- ==
-- structure gpu { Loop 12 }
-- input { [2i64, 0i64, 3i64] [10i64, 20i64, 30i64, 40i64] }
-- output { [0i64, 1i64, 0i64, 1i64, 0i64, 1i64, 2i64, 0i64, 1i64, 2i64, 0i64, 1i64, 2i64]
--          [0i64, 0i64, 1i64, 1i64, 0i64, 0i64, 0i64, 1i64, 1i64, 1i64, 2i64, 2i64, 2i64]
--          [2i64, 0i64, 3i64]
--          [11i64, 21i64, 11i64, 21i64, 31i64]
--          [20i64, 40i64, 20i64, 40i64, 60i64] }
-- input { empty([0]i64) [1i64] }
-- output { empty([0]i64) empty([0]i64) empty([0]i64) empty([0]i64) empty([0]i64) }

def main (ns: []i64) (xs: []i64) =
  let sq = map (\n -> replicate n (iota n)) ns
  let tr = map (\n -> map (\i -> replicate n i) (iota n)) ns
  let sl = map (\n -> map (+ 1) xs[:n]) ns
  let doubled = map (\r -> map (* 2) r) (map (\n -> xs[:n]) ns)
  in (flatten (map flatten sq), flatten (map flatten tr), map length sq, flatten sl, flatten doubled)
