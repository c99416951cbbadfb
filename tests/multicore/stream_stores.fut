-- Outputs of 32 MiB and more, which the multicore backend writes by
-- streaming stores (mc.c): a map of two outputs read afterwards (picks
-- and a sum over one of them), and a scan, whose second pass streams.
-- Their values must be those of ordinary stores once the parallel loop
-- is over.
-- ==
-- input { 8388608i64 }
-- output { [0.0f32, 3.5f32, 6.0f32] 25165818i64 [0i32, 4194303i32, 8388607i32] 35184367894528i64
--          [0i64, 15i64, 18874405i64, 37748728i64] }

def main (n: i64) =
  let xs = map (\i -> f32.i64 (i % 1000) / 2) (iota n)
  let (ys, zs) = unzip (map (\i -> (f32.i64 (i % 7), i32.i64 i)) (iota n))
  let ss = scan (+) 0 (map (\i -> i % 10) (iota n))
  in ([xs[0], xs[7], ys[n - 5]], i64.sum (map i64.f32 ys),
      [zs[0], zs[n / 2 - 1], zs[n - 1]],
      i64.sum (map i64.i32 zs),
      [ss[0], ss[5], ss[n / 2 + 10], ss[n - 1]])
