-- Datasets that fail: an index out of bounds at run time, a wrong expected
-- result, and a missing data file; one good dataset between them.
-- ==
-- input { [1, 2, 3] 5i64 } output { 0 }
-- input { [1, 2, 3] 1i64 } output { 99 }
-- input { [1, 2, 3] 2i64 } output { 3 }
-- input @ data/missing.in output { 0 }

def main (xs: []i32) (i: i64) : i32 = xs[i]
