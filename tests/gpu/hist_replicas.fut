-- Histograms of 4-byte buckets combined in several sub-histograms per
-- work-group (as many as fit in local memory, up to 8), each with a spare
-- bucket that indices outside the buckets go to: sums, maxima (native
-- atomics) and wrapping products (a compare-and-swap loop), over bucket
-- counts from one to more than fit in local memory several times, with
-- indices below 0 and at or above k among them. Each is checked against
-- the same histogram computed by a sequential loop.
-- ==
-- structure gpu { SegHist 3 }
-- input { 1i64 100000i64 }
-- output { true true true }
-- input { 255i64 100000i64 }
-- output { true true true }
-- input { 3000i64 100000i64 }
-- output { true true true }
-- input { 20000i64 100000i64 }
-- output { true true true }
-- input { 100000i64 50000i64 }
-- output { true true true }

def seq [n] (k: i64) (op: i32 -> i32 -> i32) (ne: i32) (is: [n]i64) (vs: [n]i32) : [k]i32 =
  loop h = replicate k ne for i < n do
    if is[i] >= 0 && is[i] < k then h with [is[i]] = op h[is[i]] vs[i] else h

def main (k: i64) (n: i64) : (bool, bool, bool) =
  let is = map (\i -> (i * 7919) % (k + 5) - 2) (iota n)
  let vs = map (\i -> i32.i64 ((i * 31) % 13) - 3) (iota n)
  let ws = map (\i -> if i % 97 == 0 then -1 else 1) (iota n)
  in (hist (+) 0 k is vs == seq k (+) 0 is vs,
      hist i32.max i32.lowest k is vs == seq k i32.max i32.lowest is vs,
      hist (*) 1 k is ws == seq k (*) 1 is ws)
