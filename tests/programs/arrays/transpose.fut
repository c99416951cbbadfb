-- transpose of a non-square matrix.
-- ==
-- input { [[1.0f64, 2.0f64, 3.0f64], [4.0f64, 5.0f64, 6.0f64]] }
-- output { [[1.0f64, 4.0f64], [2.0f64, 5.0f64], [3.0f64, 6.0f64]] }
-- input { [[1.0f64, 2.0f64]] }
-- output { [[1.0f64], [2.0f64]] }

def main (a: [][]f64) : [][]f64 = transpose a
