-- Record construction and field access.
-- ==
-- input { 3 0.5f64 }
-- output { 6 1.5f64 }
-- input { -3 0.5f64 }
-- output { 0 1.5f64 }

def main (a: i32) (b: f64) : (i32, f64) =
  let r = {count = a, mean = b, valid = a > 0}
  in (if r.valid then r.count * 2 else 0, r.mean + 1.0)
