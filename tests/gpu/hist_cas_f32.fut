-- A histogram of f32 minima: no atomic function (only + on floats has
-- one), so a compare-and-swap loop on the bucket's 32 bits, in the
-- work-group's sub-histogram in local memory. Index k is ignored.
-- ==
-- structure gpu { SegHist 1 Kernel 1 }
-- input { 5i64 4000i64 }
-- output { [-125.0f32, -124.75f32, -124.5f32, -125.0f32, -125.0f32] }

def main (k: i64) (n: i64) : [k]f32 =
  hist f32.min f32.inf k (map (\i -> (i * 7) % (k + 1)) (iota n))
       (map (\i -> f32.i64 ((i * 37) % 1001 - 500) / 4) (iota n))
