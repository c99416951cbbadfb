-- Private arrays (a loop updates one in place per element) in the map of
-- a SegScan and of a SegHist: their kernels interleave the blocks too
-- (checksums runs both again, on many elements).
-- ==
-- entry: scan_work
-- structure gpu { SegScan 2 SegHist 2 Private 4 Interleaved 4 }
-- input { 4i64 [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { [43i64, 73i64, 102i64, 129i64, 153i64] }
-- input { 5i64 empty([0]i64) }
-- output { empty([0]i64) }

-- ==
-- entry: hist_work
-- input { 4i64 3i64 [1i64, 2i64, 3i64, 4i64, 5i64] }
-- output { [29i64, 70i64, 54i64] }

-- ==
-- entry: checksums
-- input { 20000i64 6i64 }
-- output { 754998i64 9053758i64 }

def work (k: i64) (x: i64) : i64 =
  let a = replicate k x
  let a = loop a for i < k do a with [i] = (a[i] * 31 + i + a[(i + k - 1) % k]) % 17
  in a[x % k] + 2 * a[0]

entry scan_work (k: i64) (xs: []i64) : []i64 = scan (+) 0 (map (work k) xs)

entry hist_work (k: i64) (m: i64) (xs: []i64) : []i64 = hist (+) 0 m (map (% m) xs) (map (work k) xs)

entry checksums (n: i64) (k: i64) : (i64, i64) =
  let xs = iota n
  let s = scan_work k xs
  let h = hist_work k 37 xs
  in (s[n - 1] + s[n / 2], reduce (+) 0 (map2 (*) h (iota 37)))
