-- Coalescing by layout: each work-item traverses its row twice (a sum,
-- then a loop that weighs each element by it), so the input is read
-- through a transposed copy. (A sum followed by a map over the row would
-- be distributed into a segmented SegRed and a SegMap over all elements
-- instead, which read rows coalesced without a copy.)
-- ==
-- structure mem { Copy 0 }
-- structure gpu { SegMap 1 Copy 1 }
-- input { [[1i32, 2i32, 3i32], [0i32, -1i32, 1i32], [4i32, 0i32, 0i32]] }
-- output { [36i32, 0i32, 16i32] }
-- input { [[7i32]] }
-- output { [49i32] }
-- input { empty([0][5]i32) }
-- output { empty([0]i32) }

def main [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\row -> let s = i32.sum row in loop a = 0 for x in row do a + x * s) xss
