-- Register caching (compiler/imp/regcache.c): each point's row, read again for every centre, is loaded once into
-- registers when d <= 32 (versions for 8, 16 and 32 coordinates, copies past half the cap guarded); the loop runs
-- as written for longer rows, and nothing is loaded when there are no centres. Rows of 0, 1, 8, 9, 16, 17, 32 and 33
-- coordinates; a second entry reads the row at an index that changes with the centre, which is not cached, and two
-- whose loop reads a block it swaps with another in each iteration, or binds in its body: not cached either (the
-- elements loaded before the loop would be the first block's, or the block not yet declared).
-- ==
-- input { 0i64 3i64 4i64 }
-- output { [0i64, 0i64, 0i64, 0i64] }
-- input { 1i64 3i64 4i64 }
-- output { [0i64, 1i64, 2i64, 0i64] }
-- input { 8i64 3i64 4i64 }
-- output { [0i64, 1i64, 2i64, 0i64] }
-- input { 9i64 3i64 4i64 }
-- output { [0i64, 1i64, 2i64, 0i64] }
-- input { 16i64 5i64 6i64 }
-- output { [0i64, 1i64, 2i64, 3i64, 4i64, 0i64] }
-- input { 17i64 5i64 6i64 }
-- output { [0i64, 1i64, 2i64, 3i64, 4i64, 0i64] }
-- input { 32i64 5i64 6i64 }
-- output { [0i64, 1i64, 2i64, 3i64, 4i64, 0i64] }
-- input { 33i64 5i64 6i64 }
-- output { [0i64, 1i64, 2i64, 3i64, 4i64, 0i64] }
-- input { 16i64 0i64 3i64 }
-- output { [0i64, 0i64, 0i64] }
-- entry: swapped
-- input { [1f32, 2f32] [10f32, 20f32] [1f32, 2f32] 2i64 }
-- output { [31.5f32, 63f32] }
-- entry: chosen
-- input { [1f32, 2f32] [10f32, 20f32] [1f32, 2f32] 2i64 }
-- output { [31.5f32, 63f32] }
-- entry: shifted
-- input { 8i64 3i64 4i64 }
-- output { [0i64, 1i64, 2i64, 0i64] }
-- input { 17i64 3i64 4i64 }
-- output { [0i64, 1i64, 2i64, 0i64] }

-- Point i has coordinates (i mod k) * 10 + j / 8, centre c (c * 10 + j / 8): point i is nearest centre i mod k.
def nearest [k][d] (cs: [k][d]f32) (p: [d]f32) : i64 =
  let (best, _) =
    loop (best, best_d) = (0i64, f32.inf) for c < k do
      let dc = f32.sum (map2 (\a b -> (a - b) * (a - b)) p cs[c])
      in if dc < best_d then (c, dc) else (best, best_d)
  in best

def grid (rows: i64) (k: i64) (d: i64) : [rows][d]f32 =
  tabulate_2d rows d (\i j -> f32.i64 ((if k == 0 then 0 else i % k) * 10) + f32.i64 j / 8)

entry main (d: i64) (k: i64) (n: i64) : [n]i64 =
  let cs = grid k k d
  in map (nearest cs) (grid n k d)

entry shifted (d: i64) (k: i64) (n: i64) : [n]i64 =
  let cs = grid k k d
  in map (\p -> let (best, _) =
                  loop (best, best_d) = (0i64, f32.inf) for c < k do
                    let dc = f32.sum (map (\j -> let a = p[(j + c) % d] - p[j] + cs[c][j] - p[j] in a * a) (iota d))
                    in if dc < best_d then (c, dc) else (best, best_d)
                in best)
         (grid n k d)

entry swapped [n] (xs: [n]f32) (ys: [n]f32) (ps: []f32) (m: i64) : []f32 =
  map (\p -> let (_, _, s) = loop (a, b, s) = (xs, ys, 0f32) for _c < m do
                 (b, a, s * 0.5 + f32.sum (map (\x -> x * p) a))
             in s) ps

entry chosen [n] (xs: [n]f32) (ys: [n]f32) (ps: []f32) (m: i64) : []f32 =
  map (\p -> loop s = 0f32 for c < m do
                 let a = if c % 2 == 0 then xs else ys
                 in s * 0.5 + f32.sum (map (\x -> x * p) a)) ps
