-- A scan of six values, two of them f64 (eight status words a group),
-- with an associative operator that does not commute (the longest run of
-- non-decreasing elements, as futhark-benchmarks' micro/scan.fut), over
-- many work-groups. Its work-items keep over a kilobyte of local memory
-- each, so on a device with 48 KiB of it (NVIDIA) the groups shrink to 16
-- work-items, fewer than the look-back's 32 readers: the walk through a
-- round must end after the last reader's slot (it read garbage beyond it
-- and the results were wrong and varied from run to run on an H100).
-- ==
-- input { 1000000i64 }
-- output { true 1000000 }
-- input { 3000000i64 }
-- output { true 3000000 }

def lss [n] (xs: [n]f64) : [n]i32 =
  let rop (lssx, lisx, lcsx, tlx, firstx, lastx) (lssy, lisy, lcsy, tly, firsty, lasty) =
    let connect = lastx <= firsty || tlx == 0 || tly == 0
    let newlss = if connect then i32.max (lcsx + lisy) (i32.max lssx lssy) else i32.max lssx lssy
    let newlis = if lisx == tlx && connect then lisx + lisy else lisx
    let newlcs = if lcsy == tly && connect then lcsy + lcsx else lcsy
    let first = if tlx == 0 then firsty else firstx
    let last = if tly == 0 then lastx else lasty
    in (newlss, newlis, newlcs, tlx + tly, first, last)
  in scan rop (0, 0, 0, 0, 0f64, 0f64) (map (\x -> (1, 1, 1, 1, x, x)) xs) |> map (.0)

def main (n: i64) : (bool, i32) =
  let r = lss (map f64.i64 (iota n))
  in (and (map2 (\x i -> x == i32.i64 i + 1) r (iota n)), r[n - 1])
