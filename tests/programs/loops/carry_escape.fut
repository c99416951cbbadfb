-- Predictive commoning (the carry pass): the escape loop squares z to
-- update it and, after the update, squares the new z to test it. The
-- squares of the new z are carried to the next iteration as loop
-- parameters instead of being computed again from it, so the loop body
-- computes two multiplications fewer (14 binary operations in the
-- program with `--skip-pass=carry`, 12 with it; those on the initial
-- constants fold). The results are the same operations on the same
-- operands: exact, as the C backend gives them without the pass.
-- ==
-- structure { BinOp 12 Loop 1 }
-- input { [0.0f32, 0.3f32, -1.0f32, 0.26f32, 2.0f32, -0.75f32] [0.0f32, 0.5f32, 0.0f32, 0.0f32, 2.0f32, 0.1f32] 50i32 }
-- output { [50i32, 50i32, 50i32, 30i32, 1i32, 33i32] }
-- input { [0.5f32] [0.5f32] 0i32 } output { [0i32] }

def escape (limit: i32) (cr: f32) (ci: f32) : i32 =
  let (_, _, count) =
    loop (zr, zi, count) = (0f32, 0f32, 0i32)
    while count < limit && zr * zr + zi * zi < 4 do
      (zr * zr - zi * zi + cr, 2 * zr * zi + ci, count + 1)
  in count

def main [n] (cr: [n]f32) (ci: [n]f32) (limit: i32) : [n]i32 = map2 (escape limit) cr ci
