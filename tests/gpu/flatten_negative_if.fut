-- Negative (flattening, compiler/passes/flatten.c, split_ifs): an if choosing between arrays of the element's length
-- whose then branch builds, inside a map, arrays of another length (n - 6) is not split: run for the elements that
-- take the else branch (n <= 5), that length would be negative (or, for another bound, as long as anything). The
-- map stays on the host and gives the results of the branches it takes: memory expansion (the largest size over the
-- elements) does not take a branch's allocations either, for the same reason.
-- ==
-- structure gpu { Host 1 }
-- input { [3i64, 8i64, 0i64, 6i64] }
-- output { [21i64, 112i64, 0i64, 15i64] }

def main (ns: []i64) : []i64 =
  map (\n -> let xs = if n > 5 then map (\i -> i + i64.sum (scan (+) 0 (replicate (n - 6) i))) (iota n)
                      else replicate n 7
             in i64.sum xs) ns
