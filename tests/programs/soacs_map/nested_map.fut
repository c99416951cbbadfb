-- Nested maps over a matrix.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { [[2, 5], [10, 17]] }

def main (a: [][]i32) : [][]i32 = map (\row -> map (\x -> x * x + 1) row) a
