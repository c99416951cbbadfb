-- Hoisting (multicore vector code): a loop over centres whose body reads
-- a point's coordinates in an inner loop loads them once, into a buffer,
-- before it starts (k-means' assignment), each lane a point. With few
-- coordinates (hoisted), more than the buffer holds (70: not hoisted), no
-- centres (the loop does not run, nothing is loaded), and under a branch
-- some lanes do not take. The points come out of a loop (reversed twice)
-- so that they are not fused into the map.
-- ==
-- entry: assign
-- input { 70i64 3i64 5i64 2i64 }
-- output { [0i64, 3i64, 4i64, 4i64, 1i64, 4i64, 4i64, 1i64, 2i64, 2i64, 4i64, 0i64, 3i64, 4i64, 4i64, 1i64, 4i64, 4i64, 1i64, 2i64, 2i64, 4i64, 0i64, 3i64, 4i64, 4i64, 1i64, 4i64, 4i64, 1i64, 2i64, 2i64, 4i64, 0i64, 3i64, 4i64, 4i64, 1i64, 4i64, 4i64, 1i64, 2i64, 2i64, 4i64, 0i64, 3i64, 4i64, 4i64, 1i64, 4i64, 4i64, 1i64, 2i64, 2i64, 4i64, 0i64, 3i64, 4i64, 4i64, 1i64, 4i64, 4i64, 1i64, 2i64, 2i64, 4i64, 0i64, 3i64, 4i64, 4i64] }
-- input { 40i64 70i64 3i64 2i64 }
-- output { [2i64, 2i64, 1i64, 2i64, 0i64, 2i64, 0i64, 1i64, 2i64, 2i64, 1i64, 2i64, 2i64, 1i64, 2i64, 0i64, 2i64, 0i64, 1i64, 2i64, 2i64, 1i64, 2i64, 2i64, 1i64, 2i64, 0i64, 2i64, 0i64, 1i64, 2i64, 2i64, 1i64, 2i64, 2i64, 1i64, 2i64, 0i64, 2i64, 0i64] }
-- input { 45i64 4i64 0i64 2i64 }
-- output { [0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64] }

def points (n: i64) (d: i64) (twice: i64) : [n][d]f32 =
  loop p = tabulate_2d n d (\i j -> f32.i64 ((i * 7 + j * 3) % 11) - 5) for _i < twice do reverse p

def centres (k: i64) (d: i64) : [k][d]f32 =
  tabulate_2d k d (\c j -> f32.i64 ((c * 5 + j * 2) % 9) - 4)

def nearest [k][d] (cs: [k][d]f32) (p: [d]f32) : i64 =
  let (best, _) =
    loop (best, best_d) = (0i64, f32.inf) for c < k do
      let dc = loop s = 0f32 for j < d do s + (p[j] - cs[c, j]) * (p[j] - cs[c, j])
      in if dc < best_d then (c, dc) else (best, best_d)
  in best

entry assign (n: i64) (d: i64) (k: i64) (twice: i64) : [n]i64 =
  let cs = centres k d
  in map (nearest cs) (points n d twice)

-- ==
-- entry: masked
-- input { 70i64 3i64 5i64 2i64 }
-- output { [-1i64, 3i64, -1i64, 4i64, 1i64, -1i64, 4i64, -1i64, -1i64, 2i64, -1i64, -1i64, 3i64, -1i64, 4i64, 1i64, -1i64, 4i64, -1i64, -1i64, 2i64, -1i64, -1i64, 3i64, -1i64, 4i64, 1i64, -1i64, 4i64, -1i64, -1i64, 2i64, -1i64, -1i64, 3i64, -1i64, 4i64, 1i64, -1i64, 4i64, -1i64, -1i64, 2i64, -1i64, -1i64, 3i64, -1i64, 4i64, 1i64, -1i64, 4i64, -1i64, -1i64, 2i64, -1i64, -1i64, 3i64, -1i64, 4i64, 1i64, -1i64, 4i64, -1i64, -1i64, 2i64, -1i64, -1i64, 3i64, -1i64, 4i64] }

entry masked (n: i64) (d: i64) (k: i64) (twice: i64) : [n]i64 =
  let cs = centres k d
  in map (\p -> if p[0] > 0 then nearest cs p else -1) (points n d twice)
