-- flatmap and flatmap': segment sizes, flags where segments begin (an
-- empty segment begins nowhere), offsets, the joined data, and the other
-- results.
-- ==
-- input { [2i64, 0i64, 3i64, 1i64] }
-- output { [2i64, 0i64, 3i64, 1i64] [true, false, true, false, false, true] [0i64, 2i64, 2i64, 5i64]
--          [0i64, 1i64, 0i64, 1i64, 2i64, 0i64] [20i64, 0i64, 30i64, 10i64]
--          [2i64, 0i64, 3i64, 1i64] [true, false, true, false, false, true] [0i64, 2i64, 2i64, 5i64]
--          [3i64, 3i64, 4i64, 4i64, 4i64, 2i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) empty([0]bool) empty([0]i64) empty([0]i64) empty([0]i64)
--          empty([0]i64) empty([0]bool) empty([0]i64) empty([0]i64) }

def main (xs: []i64) =
  let (s, f, o, d, c) = flatmap (\x -> (iota x, x * 10)) xs
  let (s', f', o', d') = flatmap' (\x -> replicate x (x + 1)) xs
  in (s, f, o, d, c, s', f', o', d')
