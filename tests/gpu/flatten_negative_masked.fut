-- Negative (flattening, compiler/passes/flatten.c): a for loop carrying
-- an array of the element's length, whose count differs between
-- elements and whose body indexes the array at the loop's counter, is
-- not lifted: the lifted body would run for every element up to the
-- largest count, and an element past its own count would index past its
-- array (its bounds check, or one the simplifier proved from the count).
-- The map runs as a kernel all the same, by memory expansion
-- (compiler/passes/memory.c, expand_alloc): each work-item's array lives
-- in a block of the largest element's size, which a reduction computes
-- first.
-- ==
-- structure gpu { Host 0 SegRed 1 SegMap 1 }
-- input { [4i64, 3i64, 0i64, 5i64] [2i64, 3i64, 0i64, 1i64] }
-- output { [2i64, 6i64, 0i64, 0i64] }
-- input { [2i64] [3i64] }
-- error: out of bounds

def main [k] (ns: [k]i64) (cs: [k]i64) : [k]i64 =
  map2 (\n c -> let (s, _) = loop (s, ys) = (0, iota n) for i < c do (s + ys[i], map (+ 1) ys)
                in s) ns cs
