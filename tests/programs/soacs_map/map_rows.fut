-- map over the rows of a matrix, reducing each row.
-- ==
-- input { [[1.0f64, 2.0f64, 3.0f64], [4.0f64, -5.0f64, 6.0f64]] }
-- output { [6.0f64, 5.0f64] [3.0f64, 6.0f64] }

def main (a: [][]f64) : ([]f64, []f64) =
  (map f64.sum a, map (\r -> f64.maximum r) a)
