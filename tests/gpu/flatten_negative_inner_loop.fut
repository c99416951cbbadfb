-- Negative (flattening, compiler/passes/flatten.c): a while loop carrying
-- an array of the element's length whose body runs another loop is not
-- lifted: the lifted body runs for every element until the last one
-- stops, and for an element whose condition no longer holds the inner
-- loop (from -2, counting down to 1) would never end. The map runs as a
-- kernel all the same, by memory expansion (compiler/passes/memory.c,
-- expand_alloc): each work-item's array lives in a block of the largest
-- element's size, which a reduction computes first.
-- ==
-- structure gpu { Host 0 SegRed 1 SegMap 1 }
-- input { [3i64, 2i64] [2i64, -3i64] }
-- output { [132i64, 2i64] }

def main (ns: []i64) (ks: []i64) : []i64 =
  map2 (\n k ->
    let (_, ys) = loop (x, xs) = (k, map (* 2) (iota n)) while x > 0 do
                    let (y, acc) = loop (y, acc) = (x + 1, 0) while y != 1 do (y - 1, (acc ^ (y * 7)) + 1)
                    in (x - 1, map (+ (y + acc)) xs)
    in reduce (+) 0 ys) ns ks
