-- Flattening (compiler/passes/flatten.c): a scan inside a map over arrays
-- whose lengths differ between elements becomes a segmented scan over the
-- flat concatenation of all elements' arrays (flags where a segment
-- starts), and the reduction after it another, whose result for each
-- element is the last value of its segment (the neutral element for an
-- empty one). A value of the element (k) is read inside the inner
-- lambda from its expanded array. Cases: empty segments at the start, in
-- the middle and at the end, one long segment among short ones, no
-- elements at all.
-- ==
-- structure gpu { Host 0 SegScan 4 SegHist 1 }
-- input { [3i64, 0i64, 5i64, 1i64] }
-- output { [8i64, 0i64, 100i64, 2i64] }
-- input { [0i64, 0i64, 4i64, 0i64, 0i64, 2i64, 0i64] }
-- output { [0i64, 0i64, 40i64, 0i64, 0i64, 14i64, 0i64] }
-- input { empty([0]i64) }
-- output { empty([0]i64) }
-- input { [100000i64, 1i64, 2i64] }
-- output { [333343333400000i64, 2i64, 14i64] }

def main (ns: []i64) : []i64 =
  map (\n -> let k = n % 3
             let xs = scan (+) 0 (map (+k) (iota n))
             in reduce (+) 0 (map (*2) xs)) ns
