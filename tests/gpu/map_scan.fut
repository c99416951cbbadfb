-- Map-then-scan fuses into one SegScan kernel.
-- ==
-- structure gpu { SegScan 1 SegMap 0 Kernel 1 }
-- input { [1i32, 2i32, 3i32, 4i32] }
-- output { [1i32, 5i32, 14i32, 30i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }

def main (xs: []i32) : []i32 = scan (+) 0 (map (\x -> x * x) xs)
