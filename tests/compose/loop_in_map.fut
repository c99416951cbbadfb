-- A map whose body is a sequential while loop (Collatz step counts), then
-- the maximum and the total of the counts. The loop runs inside each
-- work-item; the map fuses into both reductions, which fuse horizontally:
-- one whole-array SegRed, 2 kernels.
-- ==
-- structure gpu { SegRed 1 SegMap 0 Kernel 2 }
-- input { [1i64, 6i64, 7i64, 27i64] }
-- output { 111i32 135i64 }
-- input { [2i64] }
-- output { 1i32 1i64 }
-- input { empty([0]i64) }
-- output { 0i32 0i64 }
-- input @ data/loop_in_map.in
-- output @ data/loop_in_map.out

def collatz_steps (x: i64) : i32 =
  let (_, steps) =
    loop (v, s) = (x, 0i32) while v > 1 do
      (if v % 2 == 0 then v / 2 else 3 * v + 1, s + 1)
  in steps

def main (xs: []i64) : (i32, i64) =
  let steps = map collatz_steps xs
  in (reduce i32.max 0 steps, reduce (+) 0 (map i64.i32 steps))
