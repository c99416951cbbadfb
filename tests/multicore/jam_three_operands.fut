-- Matrix products after one another in a program (the shapes of Futhark's
-- tests/reg-tiling/sgemm.fut): the third's dot products read three
-- operands, and the unroll-and-jam of its rows, finding no loop over k to
-- split into blocks, left a comparison with no bound in the LLVM module
-- (an invalid module; LLVM crashed on it). Results against the C
-- backend's (auto output), sizes not multiples of the lanes or rows.
-- ==
-- entry: plain indexed three
-- random input { [37][45]f32 [45][29]f32 [37][29]f32 [37][45]f32 0.5f32 0.75f32 } auto output
-- random input { [8][16]f32 [16][16]f32 [8][16]f32 [8][16]f32 1f32 0f32 } auto output

entry plain [n] [m] [q] (A: [n][q]f32) (B: [q][m]f32) (C: [n][m]f32) (_: [n][q]f32) (alpha: f32) (beta: f32) : [n][m]f32 =
  map2 (\Arow Crow ->
          map2 (\Bcol c -> alpha * f32.sum (map2 (*) Arow Bcol) + beta * c) (transpose B) Crow)
       A C

entry indexed [n] [m] [q] (A: [n][q]f32) (B: [q][m]f32) (C: [n][m]f32) (_: [n][q]f32) (alpha: f32) (beta: f32) : [n][m]f32 =
  map2 (\Arow i ->
          map2 (\Bcol j ->
                  let y = beta * C[i / 2, j / 2]
                  in alpha * f32.sum (map2 (*) Bcol Arow) + y)
               (transpose B) (iota m))
       A (iota n)

entry three [n] [m] [q] (A: [n][q]f32) (B: [q][m]f32) (C: [n][m]f32) (D: [n][q]f32) (alpha: f32) (beta: f32) : [n][m]f32 =
  map3 (\Arow Drow Crow ->
          map2 (\Bcol c ->
                  let x = map3 (\a d b -> a * d * b) Arow Drow Bcol |> f32.sum
                  in alpha * x + beta * c)
               (transpose B)
               Crow)
       A D C
