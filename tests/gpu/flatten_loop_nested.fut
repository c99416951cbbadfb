-- Flattening (compiler/passes/flatten.c): a for loop inside a lifted for
-- loop, the inner one carrying an array (of a filter's length) built
-- before the outer loop, which a scan reads after it. The inner loop's
-- lifting makes that length's positions inside the outer loop's body;
-- they stay there (the outer body's descriptors are copies), and the scan
-- after the loops uses positions made outside.
-- ==
-- structure gpu { Host 0 Loop 2 }
-- input { [3i64, 0i64, 6i64] }
-- output { [75i64, 0i64, 363i64] [6i64, 0i64, 24i64] }

def main (ns: []i64) : ([]i64, []i64) =
  unzip (map (\n ->
    let f = filter (\x -> x % 2 == 0) (map (* 3) (iota n))
    let xs = loop xs = map (* 5) (iota n) for i < 2 do
               let g = loop g = f for j < 2 do map (+ (j + i)) g
               in map (+ (i64.sum g)) xs
    in (i64.sum xs, i64.sum (scan (+) 0 f))) ns)
