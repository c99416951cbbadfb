-- Negative: an in-place update between producer and consumer blocks fusion: a SegMap then a SegRed.
-- ==
-- structure gpu { SegMap 1 SegRed 1 Kernel 3 }
-- input { [1i32, 2i32, 3i32, 4i32] }
-- output { 112i32 }

def main (xs: []i32) : i32 =
  let ys = map (\x -> x + 1) xs
  let ys[0] = 100
  in reduce (+) 0 ys
