-- Explicit let ... in chains and nested lets.
-- ==
-- input { 3.0f64 }
-- output { 9.5f64 }

def main (x: f64) : f64 =
  let a = x * x in
  let b = a + 1.0 in
  let c = (let d = b * 2.0 in d - 1.0) in
  c / 2.0
