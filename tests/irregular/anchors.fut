-- A position finds its row by a binary search between anchors, the rows
-- of every 256th position (compiler/lower/irregular.c): rows longer than
-- the anchors' spacing, a run of 600 empty rows inside one stretch of
-- positions and across several, and empty rows at both ends. A map, a
-- scan and a filter over the rows are checked against values computed
-- from each position's row found another way: the number of rows that
-- end at or before it.
-- ==
-- input { 1200i64 } output { true true true }
-- input { 5i64 } output { true true true }
-- input { 1i64 } output { true true true }
-- input { 0i64 } output { true true true }

def size (i: i64) : i64 =
  if i < 3 || (i >= 100 && i < 700) || i % 5 < 2 then 0 else (i * 37) % 700

def main (n: i64) =
  let sizes = map size (iota n)
  let m = i64.sum sizes
  let xs = iota m
  let ends = scan (+) 0 sizes
  let row = map (\p -> i64.sum (map (\e -> i64.bool (e <= p)) ends)) xs
  let start = map (\s -> ends[s] - sizes[s]) row
  let rows = unflatten_irregular sizes xs
  let mapped = flatten (map2 (\i r -> map (+ i * 1000000) r) (iota n) rows)
  let scanned = flatten (map (\r -> scan (+) 0 r) rows)
  let kept = map (\r -> filter (\x -> x % 3 == 0) r) rows
  let counts = hist (+) 0 n row (map (\x -> i64.bool (x % 3 == 0)) xs)
  in ( mapped == map2 (\x s -> x + s * 1000000) xs row
     , scanned == map2 (\p o -> (p - o + 1) * (o + p) / 2) xs start
     , flatten kept == filter (\x -> x % 3 == 0) xs && map length kept == counts )
