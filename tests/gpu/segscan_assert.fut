-- A segmented scan whose map fails an assertion at one element (840 / x
-- where x is 0): the failing work-item skips the rest of that element
-- but still meets its group's barriers and look-back, so the kernel ends
-- and the run reports the failure. Entry big fails in the first
-- work-group, in a later one, or not at all (rows of 3000 elements span
-- work-groups; its result is a weighted sum of the scans, from a
-- sequential reference in Python).
-- ==
-- structure gpu { SegScan 2 SegRed 1 }
-- input { [[1i32, 2i32, 4i32], [5i32, 7i32, 8i32]] }
-- output { [[840i64, 1260i64, 1470i64], [168i64, 288i64, 393i64]] }
-- input { [[1i32, 0i32, 4i32], [5i32, 7i32, 8i32]] }
-- error: [Aa]ssert|[Dd]ivision by zero
-- input { empty([0][3]i32) }
-- output { empty([0][3]i64) }

-- ==
-- entry: big
-- input { 40i64 3000i64 -1i64 }
-- output { 31151565540238i64 }
-- input { 40i64 3000i64 17i64 }
-- error: [Aa]ssert|[Dd]ivision by zero
-- input { 40i64 3000i64 70001i64 }
-- error: [Aa]ssert|[Dd]ivision by zero

def scans [n][m] (xss: [n][m]i32) : [n][m]i64 =
  map (\row -> scan (+) 0 (map (\x -> assert (x != 0) (840 / i64.i32 x)) row)) xss

entry main [n][m] (xss: [n][m]i32) : [n][m]i64 = scans xss

entry big (n: i64) (m: i64) (z: i64) : i64 =
  let xss = tabulate_2d n m (\i j -> let k = i * m + j in if k == z then 0 else i32.i64 (k * 7919 % 7) + 1)
  let ys = scans xss
  in reduce (+) 0 (map2 (\y k -> y * (k % 1000 + 1)) (flatten ys) (iota (n * m)))
