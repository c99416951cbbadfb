-- Flattening (compiler/passes/flatten.c): each element builds an array
-- whose length depends on the element, updates one element of it in
-- place and sums it with a loop. The arrays are stored packed in one flat
-- array: the iota and the map over it run over the flat positions, the
-- update is a scatter of one element per segment, and the loop reads its
-- segment of the flat array, in one work-item per element as before. A
-- length of 0 fails the update's bounds check.
-- ==
-- structure gpu { Host 0 Scatter 1 SegHist 1 }
-- input { [1i64, 3i64, 4i64] }
-- output { [7i64, 16i64, 31i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }
-- input { [5i64, 2i64, 0i64] }
-- error: out of bounds

def main (ns: []i64) : []i64 =
  map (\n -> let a = map (\i -> i * n) (iota n)
             let a[0] = 7
             in loop s = 0 for x in a do s + x) ns
