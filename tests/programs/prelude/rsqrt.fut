-- rsqrt: 1 / sqrt x, which the multicore backend computes for f32 by the
-- processor's estimate refined by a Newton step and OpenCL by its rsqrt
-- (both within a few ulp), the C backend exactly. The estimate is wrong
-- outside the normal numbers: zeros give infinities of their sign,
-- infinity 0, negatives and NaN NaN, subnormals their large results.
-- ==
-- entry: specials
-- input { [0f32, -0f32, f32.inf, -1f32, -f32.inf, f32.nan, 4f32, 0.25f32] }
-- output { [f32.inf, -f32.inf, 0f32, f32.nan, f32.nan, f32.nan, 0.5f32, 2f32] }

entry specials (xs: []f32) : []f32 = map f32.rsqrt xs

-- Subnormal inputs.
-- ==
-- entry: subnormal
-- input { [1e-40f32, 1e-45f32, 1.1754942e-38f32] }
-- output { true }

entry subnormal (xs: []f32) : bool =
  let want = map (\x -> 1 / f64.sqrt (f64.f32 x)) xs
  in and (map2 (\x w -> f64.abs (f64.f32 (f32.rsqrt x) - w) <= 4e-7 * w) xs want)

-- The largest relative error over n positive floats spread over all
-- exponents (bit patterns from the least subnormal to the largest
-- finite), against 1 / sqrt in f64: at most 4e-7 (about 3 ulp).
-- ==
-- entry: worst
-- input { 100000i64 } output { true }
-- input { 37i64 } output { true }

entry worst (n: i64) : bool =
  let step = 0x7f7fffff / n
  let err (i: i64) =
    let x = f32.from_bits (u32.i64 (1 + i * step))
    let want = 1 / f64.sqrt (f64.f32 x)
    in f64.abs (f64.f32 (f32.rsqrt x) - want) / want
  in f64.maximum (map err (iota n)) <= 4e-7

-- One value outside any map, and f64 and f16 (exact as 1 / sqrt).
-- ==
-- entry: scalars
-- input { 16f32 0f32 } output { 0.25f32 f32.inf 0.5f64 f64.inf 0.5f16 }

entry scalars (x: f32) (z: f32) : (f32, f32, f64, f64, f16) =
  (f32.rsqrt x, f32.rsqrt z, f64.rsqrt (f64.f32 (x / 4)), f64.rsqrt (f64.f32 z), f16.rsqrt (f16.f32 (x / 4)))
