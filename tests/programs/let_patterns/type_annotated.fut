-- Type annotations in let patterns.
-- ==
-- input { 3i64 }
-- output { 7i64 1.5f32 }
-- input { 0i64 }
-- output { 1i64 0.0f32 }

def main (n: i64) : (i64, f32) =
  let (k: i64, s: f32) = (n * 2, f32.i64 n / 2)
  let z: i64 = k + 1
  in (z, s)
