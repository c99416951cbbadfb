-- Flattening (compiler/passes/flatten.c): a filter inside a map over
-- arrays whose lengths differ (a scan of flags, then the count and the
-- last kept element read from each element's segment of the flat scan).
-- Floats and an operator that does not commute (the last kept value)
-- too.
-- ==
-- structure gpu { Host 0 Scatter 1 SegScan 4 }
-- input { [10i64, 0i64, 3i64, 1i64] [1.5f32, 2.0f32, 0.5f32, 4.0f32] }
-- output { [4i64, 0i64, 1i64, 1i64] [13.5f32, 0.0f32, 0.0f32, 0.0f32] }
-- input { empty([0]i64) empty([0]f32) }
-- output { empty([0]i64) empty([0]f32) }

def main [n] (ns: [n]i64) (fs: [n]f32) : ([n]i64, [n]f32) =
  unzip (map2 (\m f -> let ys = filter (\x -> x % 3 == 0) (iota m)
                       let c = length ys
                       in (c, if c > 0 then f * f32.i64 ys[c - 1] else 0)) ns fs)
