-- for loop bound of type i64 gives an i64 counter.
-- ==
-- input { 4i64 }
-- output { 6i64 2.083333333333333f64 }

def main (n: i64) : (i64, f64) =
  loop (s, h) = (0, 0.0) for i < n do (s + i, h + 1.0 / f64.i64 (i + 1))
