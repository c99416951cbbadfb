-- Each work-item keeps a private array of k elements (k known only at run
-- time) that a loop updates in place; its block is interleaved (the
-- coalesced layout: element e of work-item t at e * nthreads + t), in a
-- SegMap and in the first kernel of a SegRed (whose work-items each run
-- many elements).
-- ==
-- entry: main
-- structure gpu { SegMap 1 SegRed 1 Private 2 Interleaved 2 }
-- input { 3i64 [1f32, 2f32, 3f32, 4f32, 5f32] }
-- output { [6f32, 9f32, 12f32, 15f32, 18f32] }
-- input { 0i64 [1f32, 2f32] }
-- output { [0f32, 0f32] }
-- input { 5i64 empty([0]f32) }
-- output { empty([0]f32) }

-- ==
-- entry: checksum
-- input { 5000i64 7i64 }
-- output { 314860f32 }
-- input { 100000i64 3i64 }
-- output { 2099946f32 }

def body (k: i64) (x: f32) : f32 =
  let a = replicate k x
  let a = loop a for i < k do a with [i] = a[i] + f32.i64 i
  in reduce (+) 0 a

def main (k: i64) (xs: []f32) : []f32 = map (body k) xs

entry checksum (n: i64) (k: i64) : f32 = reduce (+) 0 (map (\i -> body k (f32.i64 (i % 13))) (iota n))
