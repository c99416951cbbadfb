-- A map whose body holds a loop is one SegMap; the loop runs per work-item.
-- ==
-- structure gpu { SegMap 1 Loop 1 Kernel 1 }
-- input { [0i32, 1i32, 3i32, 4i32] }
-- output { [0i32, 0i32, 9i32, 24i32] }

def main (xs: []i32) : []i32 =
  map (\x -> loop acc = 0 for i < x do acc + i * x) xs
