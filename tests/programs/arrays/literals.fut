-- Array literals of one, two and three dimensions.
-- ==
-- input { 5 }
-- output { [5, 10, 15] [[1.0f64, 2.0f64], [3.0f64, 4.0f64]] [[[true, false]], [[false, true]]] }

def main (x: i32) : ([3]i32, [2][2]f64, [2][1][2]bool) =
  ([x, x * 2, x * 3], [[1.0, 2.0], [3.0, 4.0]], [[[true, false]], [[false, true]]])
