-- Negative: a map reading a scan's result at other indices cannot fuse: SegScan then SegMap.
-- ==
-- structure gpu { SegScan 1 SegMap 1 Kernel 2 }
-- input { [1i32, 2i32, 3i32, 4i32] }
-- output { [-9i32, -3i32, 3i32, 9i32] }

def main (xs: []i32) : []i32 =
  let ps = scan (+) 0 xs
  in map (\i -> ps[i] - ps[length xs - 1 - i]) (indices xs)
