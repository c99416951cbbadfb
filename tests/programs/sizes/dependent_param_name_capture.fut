-- The caller's own variable named like a later parameter of the applied
-- function ('x' of replicate) keeps its meaning as a size.
-- ==
-- input { 3i64 7 } output { [7, 7, 7] [[7, 7, 7], [8, 8, 8]] }

def sevens (x: i64) : [x]i32 = replicate x 7

def main (x: i64) (v: i32) : ([x]i32, [2][x]i32) =
  (sevens x, map (replicate x) [v, v + 1])
