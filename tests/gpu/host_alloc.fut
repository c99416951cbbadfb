-- Negative: each element builds an array whose length depends on the element and sums it with a loop; the per-element allocation keeps it on the host.
-- ==
-- structure gpu { Host 1 SegMap 0 Kernel 0 }
-- input { [1i64, 3i64, 4i64] }
-- output { [7i64, 16i64, 31i64] }

def main (ns: []i64) : []i64 =
  map (\n -> let a = map (\i -> i * n) (iota n)
             let a[0] = 7
             in loop s = 0 for x in a do s + x) ns
