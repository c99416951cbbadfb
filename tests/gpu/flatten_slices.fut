-- Flattening (compiler/passes/flatten.c): a slice of an inner array from
-- an index of the element (its length differs by element), a copy, and
-- concatenations of inner arrays with each other and with an array of
-- fixed length the element builds: each becomes a map over the flat
-- positions of its result that reads the element's segments (or the
-- element's row of the fixed-length array). The slice's bounds check
-- fails for an index past the length.
-- ==
-- structure gpu { Host 0 }
-- input { [5i64, 0i64, 3i64, 8i64] [2i64, 0i64, 3i64, 1i64] }
-- output { [29i64, 0i64, 0i64, 140i64] [171i64, 0i64, 27i64, 1056i64] [7i64, 2i64, 5i64, 10i64] }
-- input { [5i64, 2i64] [2i64, 3i64] }
-- error: out of bounds

def main [k] (ns: [k]i64) (is: [k]i64) : ([k]i64, [k]i64, [k]i64) =
  unzip3 (map2 (\n i ->
    let xs = map (\x -> x * x) (iota n)
    let ys = xs[i:]
    let zs = copy (scan (+) 0 ys)
    let ws = concat (iota i) zs
    let ws = concat ws (replicate 2 n)
    in (reduce (+) 0 ys, reduce (+) 0 (map (*3) ws), length ws)) ns is)
