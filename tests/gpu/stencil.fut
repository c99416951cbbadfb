-- A time loop around a stencil map: the loop stays on the host, one SegMap inside it.
-- ==
-- structure gpu { SegMap 1 Loop 1 Kernel 1 }
-- input { 3i32 [0.0f32, 3.0f32, 0.0f32, 6.0f32] }
-- output { [1.22222221f32, 1.77777767f32, 2.66666675f32, 3.33333325f32] }
-- input { 0i32 [1.0f32, 2.0f32] }
-- output { [1f32, 2f32] }

def main [n] (steps: i32) (xs: [n]f32) : [n]f32 =
  loop xs for _t < steps do
    map (\i -> let l = if i == 0 then xs[i] else xs[i-1]
               let r = if i == n-1 then xs[i] else xs[i+1]
               in (l + xs[i] + r) / 3) (iota n)
