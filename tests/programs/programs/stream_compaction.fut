-- Stream compaction written by hand: a scan over flags computes each kept
-- element's destination, and scatter writes it there.
-- ==
-- input { [1, 3, 4, 6, 7, 9, 10] }
-- output { [1, 4, 7, 10] }
-- input { [3, 6] }
-- output { empty([0]i32) }
-- input { empty([0]i32) }
-- output { empty([0]i32) }

def compact [n] (keep: [n]bool) (xs: [n]i32) : []i32 =
  let flags = map i64.bool keep
  let offsets = scan (+) 0 flags
  let total = if n == 0 then 0 else offsets[n - 1]
  let dest = map2 (\k o -> if k then o - 1 else -1) keep offsets
  in scatter (replicate total 0) dest xs

def main (xs: []i32) : []i32 = compact (map (\x -> x % 3 != 0) xs) xs
