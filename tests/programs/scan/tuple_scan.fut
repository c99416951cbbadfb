-- Scan on pairs (segmented-sum style operator).
-- ==
-- input { [1, 2, 3, 4, 5, 6] [true, false, false, true, false, true] }
-- output { [1, 3, 6, 4, 9, 6] }

def segop (v1: i32, f1: bool) (v2: i32, f2: bool) : (i32, bool) =
  (if f2 then v2 else v1 + v2, f1 || f2)

def main [n] (vals: [n]i32) (flags: [n]bool) : [n]i32 =
  let (res, _) = unzip (scan segop (0, false) (zip vals flags))
  in res
