-- filter and partition of one array: their flag scans and the array itself fuse into one Screma with two scans, which runs as one parallel SegScan (the counts are the scans' last elements, so no reduction and no second kernel), then one SegMap per scatter; 4097 and 100000 elements span several groups.
-- ==
-- structure gpu { SegScan 1 SegMap 2 SegRed 0 SegSeq 0 Kernel 3 }
-- input { 0i64 }
-- output { 0i64 -1i64 -1i64 -1i64 0i64 -1i64 -1i64 -1i64 -1i64 -1i64 }
-- input { 1i64 }
-- output { 0i64 -1i64 -1i64 -1i64 1i64 0i64 0i64 -1i64 -1i64 -1i64 }
-- input { 12i64 }
-- output { 1i64 514i64 514i64 514i64 6i64 352i64 109i64 919i64 676i64 514i64 }
-- input { 4097i64 }
-- output { 589i64 514i64 976i64 276i64 2048i64 286i64 276i64 919i64 976i64 519i64 }
-- input { 100000i64 }
-- output { 14300i64 514i64 164i64 773i64 50000i64 456i64 368i64 919i64 650i64 530i64 }

def main (n: i64) =
  let xs = map (\i -> (i * 7919 + i / 1000 * 13) % 1000) (iota n)
  let ys = filter (\x -> x % 7 == 3) xs
  let (as, bs) = partition (\x -> x < 500) xs
  let k = length ys
  let m = length as
  in (k, if k > 0 then ys[0] else -1, if k > 0 then ys[k / 2] else -1, if k > 0 then ys[k - 1] else -1,
      m, if m > 0 then as[m / 3] else -1, if m > 0 then as[m - 1] else -1,
      if n - m > 0 then bs[0] else -1, if n - m > 0 then bs[(n - m) / 2] else -1,
      if n - m > 0 then bs[n - m - 1] else -1)
