-- Tuples containing arrays of different types.
-- ==
-- input { 3i64 }
-- output { [0i64, 1i64, 2i64] [0.0f64, 1.0f64, 2.0f64] 6i64 }
-- input { 0i64 }
-- output { empty([0]i64) empty([0]f64) 0i64 }

def main (n: i64) : ([]i64, []f64, i64) =
  let t = (iota n, map f64.i64 (iota n), n)
  in (t.0, t.1, t.2 * 2)
