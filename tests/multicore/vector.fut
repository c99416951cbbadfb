-- Vector code (the multicore backend runs a map's iterations in the
-- lanes of vector registers): divergent branches, loops whose trip count
-- differs between lanes, inner loops with varying bounds, loads and
-- stores by varying indices, bools and narrow integers, and lengths that
-- are not a multiple of the lanes; results must equal the scalar code's.
-- The maps' results are the entries' results, so that no reduction is
-- fused into them.
-- ==
-- entry: collatz
-- input { 45i64 } output { [0i32, 1i32, 7i32, 2i32, 5i32, 8i32, 16i32, 3i32, 19i32, 6i32, 14i32, 9i32, 9i32, 17i32, 17i32, 4i32, 12i32, 20i32, 20i32, 7i32, 7i32, 15i32, 15i32, 10i32, 23i32, 10i32, 111i32, 18i32, 18i32, 18i32, 106i32, 5i32, 26i32, 13i32, 13i32, 21i32, 21i32, 21i32, 34i32, 8i32, 109i32, 8i32, 29i32, 16i32, 16i32] }

entry collatz (n: i64) : []i32 =
  map (\i -> let (_, c) = loop (x, c) = (i + 1, 0i32) while x != 1 do
                            (if x % 2 == 0 then x / 2 else 3 * x + 1, c + 1)
             in c) (iota n)

-- Long enough for tasks of two vector registers' worth of lanes (32 with
-- AVX-512) and more on one thread.
-- ==
-- entry: collatz
-- input { 700i64 } output { [0i32, 1i32, 7i32, 2i32, 5i32, 8i32, 16i32, 3i32, 19i32, 6i32, 14i32, 9i32, 9i32, 17i32, 17i32, 4i32, 12i32, 20i32, 20i32, 7i32, 7i32, 15i32, 15i32, 10i32, 23i32, 10i32, 111i32, 18i32, 18i32, 18i32, 106i32, 5i32, 26i32, 13i32, 13i32, 21i32, 21i32, 21i32, 34i32, 8i32, 109i32, 8i32, 29i32, 16i32, 16i32, 16i32, 104i32, 11i32, 24i32, 24i32, 24i32, 11i32, 11i32, 112i32, 112i32, 19i32, 32i32, 19i32, 32i32, 19i32, 19i32, 107i32, 107i32, 6i32, 27i32, 27i32, 27i32, 14i32, 14i32, 14i32, 102i32, 22i32, 115i32, 22i32, 14i32, 22i32, 22i32, 35i32, 35i32, 9i32, 22i32, 110i32, 110i32, 9i32, 9i32, 30i32, 30i32, 17i32, 30i32, 17i32, 92i32, 17i32, 17i32, 105i32, 105i32, 12i32, 118i32, 25i32, 25i32, 25i32, 25i32, 25i32, 87i32, 12i32, 38i32, 12i32, 100i32, 113i32, 113i32, 113i32, 69i32, 20i32, 12i32, 33i32, 33i32, 20i32, 20i32, 33i32, 33i32, 20i32, 95i32, 20i32, 46i32, 108i32, 108i32, 108i32, 46i32, 7i32, 121i32, 28i32, 28i32, 28i32, 28i32, 28i32, 41i32, 15i32, 90i32, 15i32, 41i32, 15i32, 15i32, 103i32, 103i32, 23i32, 116i32, 116i32, 116i32, 23i32, 23i32, 15i32, 15i32, 23i32, 36i32, 23i32, 85i32, 36i32, 36i32, 36i32, 54i32, 10i32, 98i32, 23i32, 23i32, 111i32, 111i32, 111i32, 67i32, 10i32, 49i32, 10i32, 124i32, 31i32, 31i32, 31i32, 80i32, 18i32, 31i32, 31i32, 31i32, 18i32, 18i32, 93i32, 93i32, 18i32, 44i32, 18i32, 44i32, 106i32, 106i32, 106i32, 44i32, 13i32, 119i32, 119i32, 119i32, 26i32, 26i32, 26i32, 119i32, 26i32, 18i32, 26i32, 39i32, 26i32, 26i32, 88i32, 88i32, 13i32, 39i32, 39i32, 39i32, 13i32, 13i32, 101i32, 101i32, 114i32, 26i32, 114i32, 52i32, 114i32, 114i32, 70i32, 70i32, 21i32, 52i32, 13i32, 13i32, 34i32, 34i32, 34i32, 127i32, 21i32, 83i32, 21i32, 127i32, 34i32, 34i32, 34i32, 52i32, 21i32, 21i32, 96i32, 96i32, 21i32, 21i32, 47i32, 47i32, 109i32, 47i32, 109i32, 65i32, 109i32, 109i32, 47i32, 47i32, 8i32, 122i32, 122i32, 122i32, 29i32, 29i32, 29i32, 78i32, 29i32, 122i32, 29i32, 21i32, 29i32, 29i32, 42i32, 42i32, 16i32, 29i32, 91i32, 91i32, 16i32, 16i32, 42i32, 42i32, 16i32, 42i32, 16i32, 60i32, 104i32, 104i32, 104i32, 42i32, 24i32, 29i32, 117i32, 117i32, 117i32, 117i32, 117i32, 55i32, 24i32, 73i32, 24i32, 117i32, 16i32, 16i32, 16i32, 42i32, 24i32, 37i32, 37i32, 37i32, 24i32, 24i32, 86i32, 86i32, 37i32, 130i32, 37i32, 37i32, 37i32, 37i32, 55i32, 55i32, 11i32, 24i32, 99i32, 99i32, 24i32, 24i32, 24i32, 143i32, 112i32, 50i32, 112i32, 24i32, 112i32, 112i32, 68i32, 68i32, 11i32, 112i32, 50i32, 50i32, 11i32, 11i32, 125i32, 125i32, 32i32, 125i32, 32i32, 125i32, 32i32, 32i32, 81i32, 81i32, 19i32, 125i32, 32i32, 32i32, 32i32, 32i32, 32i32, 50i32, 19i32, 45i32, 19i32, 45i32, 94i32, 94i32, 94i32, 45i32, 19i32, 19i32, 45i32, 45i32, 19i32, 19i32, 45i32, 45i32, 107i32, 63i32, 107i32, 58i32, 107i32, 107i32, 45i32, 45i32, 14i32, 32i32, 120i32, 120i32, 120i32, 120i32, 120i32, 120i32, 27i32, 58i32, 27i32, 76i32, 27i32, 27i32, 120i32, 120i32, 27i32, 19i32, 19i32, 19i32, 27i32, 27i32, 40i32, 40i32, 27i32, 40i32, 27i32, 133i32, 89i32, 89i32, 89i32, 133i32, 14i32, 133i32, 40i32, 40i32, 40i32, 40i32, 40i32, 32i32, 14i32, 58i32, 14i32, 53i32, 102i32, 102i32, 102i32, 40i32, 115i32, 27i32, 27i32, 27i32, 115i32, 115i32, 53i32, 53i32, 115i32, 27i32, 115i32, 53i32, 71i32, 71i32, 71i32, 97i32, 22i32, 115i32, 53i32, 53i32, 14i32, 14i32, 14i32, 40i32, 35i32, 128i32, 35i32, 128i32, 35i32, 35i32, 128i32, 128i32, 22i32, 35i32, 84i32, 84i32, 22i32, 22i32, 128i32, 128i32, 35i32, 35i32, 35i32, 27i32, 35i32, 35i32, 53i32, 53i32, 22i32, 48i32, 22i32, 22i32, 97i32, 97i32, 97i32, 141i32, 22i32, 48i32, 22i32, 141i32, 48i32, 48i32, 48i32, 97i32, 110i32, 22i32, 48i32, 48i32, 110i32, 110i32, 66i32, 66i32, 110i32, 61i32, 110i32, 35i32, 48i32, 48i32, 48i32, 61i32, 9i32, 35i32, 123i32, 123i32, 123i32, 123i32, 123i32, 61i32, 30i32, 123i32, 30i32, 123i32, 30i32, 30i32, 79i32, 79i32, 30i32, 30i32, 123i32, 123i32, 30i32, 30i32, 22i32, 22i32, 30i32, 22i32, 30i32, 48i32, 43i32, 43i32, 43i32, 136i32, 17i32, 43i32, 30i32, 30i32, 92i32, 92i32, 92i32, 43i32, 17i32, 136i32, 17i32, 30i32, 43i32, 43i32, 43i32, 87i32, 17i32, 43i32, 43i32, 43i32, 17i32, 17i32, 61i32, 61i32, 105i32, 56i32, 105i32, 30i32, 105i32, 105i32, 43i32, 43i32, 25i32, 30i32, 30i32, 30i32, 118i32, 118i32, 118i32, 30i32, 118i32, 56i32, 118i32, 118i32, 118i32, 118i32, 56i32, 56i32, 25i32, 74i32, 74i32, 74i32, 25i32, 25i32, 118i32, 118i32, 17i32, 56i32, 17i32, 69i32, 17i32, 17i32, 43i32, 43i32, 25i32, 131i32, 38i32, 38i32, 38i32, 38i32, 38i32, 69i32, 25i32, 131i32, 25i32, 131i32, 87i32, 87i32, 87i32, 131i32, 38i32, 25i32, 131i32, 131i32, 38i32, 38i32, 38i32, 38i32, 38i32, 30i32, 38i32, 30i32, 56i32, 56i32, 56i32, 131i32, 12i32, 51i32, 25i32, 25i32, 100i32, 100i32, 100i32, 38i32, 25i32, 144i32, 25i32, 100i32, 25i32, 25i32, 144i32, 144i32, 113i32, 51i32, 51i32, 51i32, 113i32, 113i32, 25i32, 25i32, 113i32, 51i32, 113i32, 144i32, 69i32, 69i32, 69i32, 95i32, 12i32, 64i32, 113i32, 113i32, 51i32, 51i32, 51i32, 64i32, 12i32, 64i32, 12i32, 38i32, 126i32, 126i32, 126i32, 38i32, 33i32, 126i32, 126i32, 126i32, 33i32, 33i32, 126i32, 126i32, 33i32, 126i32, 33i32, 64i32, 82i32] }

-- Inner loops whose bounds differ between lanes, and branches on data.
-- ==
-- entry: triangle
-- input { 37i64 } output { [0i64, -1i64, 0i64, -2i64, -1i64, 2i64, -1i64, 2i64, 7i64, 3i64, 8i64, 15i64, 10i64, 17i64, 26i64, 20i64, 29i64, 40i64, 33i64, 44i64, 57i64, 49i64, 62i64, 77i64, 68i64, 83i64, 100i64, 90i64, 107i64, 126i64, 115i64, 134i64, 155i64, 143i64, 164i64, 187i64, 174i64] }

entry triangle (n: i64) : []i64 =
  map (\i -> loop acc = 0i64 for j < i do if (i + j) % 3 == 0 then acc + j else acc - 1) (iota n)

-- Gathers (rows of a matrix by a permutation), narrow types and bools.
-- ==
-- entry: gathers
-- input { 21i64 7i64 } output { [0f32, 48f32, 19f32, 63.5f32, 38f32, 9f32, 53.5f32, 24.5f32, 72.5f32, 43.5f32, 14.5f32, 62.5f32, 33.5f32, 4.5f32, 49f32, 23.5f32, 68f32, 39f32, 13.5f32, 58f32, 29f32] [0i16, 1000i16, 2000i16, 3000i16, 4000i16, 5000i16, 6000i16, 7000i16, 8000i16, 9000i16, 10000i16, 11000i16, 12000i16, 13000i16, 14000i16, 15000i16, 16000i16, 17000i16, 18000i16, 19000i16, 20000i16] [false, true, true, false, true, false, false, true, false, false, true, false, true, true, false, false, true, true, false, true, false] [0u8, 232u8, 208u8, 0u8, 160u8, 0u8, 0u8, 88u8, 0u8, 0u8, 16u8, 0u8, 224u8, 200u8, 0u8, 0u8, 128u8, 104u8, 0u8, 56u8, 0u8] }

entry gathers (n: i64) (m: i64) : ([]f32, []i16, []bool, []u8) =
  let mat = map (\i -> map (\j -> f32.i64 (i * m + j)) (iota m)) (iota n)
  let col = map (\i -> mat[(i * 13) % n, (i * 5) % m] * 0.5) (iota n)
  let small = map (\i -> i16.i64 (i * 1000)) (iota n)
  let flags = map (\i -> i % 3 == 1 || i % 5 == 2) (iota n)
  let bytes = map2 (\f s -> if f then u8.i16 s else 0) flags small
  in (col, small, flags, bytes)

-- A scatter whose indices repeat: which write wins is unspecified (lanes
-- and tasks write at once), but each element gets one of the values
-- written to it.
-- ==
-- entry: repeats
-- input { 1000i64 } output { true 10i64 }

entry repeats (n: i64) : (bool, i64) =
  let r = scatter (replicate 10 (-1)) (map (% 10) (iota n)) (iota n)
  in (and (map2 (\k x -> x >= 0 && x < n && x % 10 == k) (iota 10) r), length r)

-- An index out of bounds in one lane only (element bad): the failure is
-- that element's, whichever lane it is in.
-- ==
-- entry: oob
-- input { 40i64 -1i64 } output { [0i64, 1i64, 4i64, 3i64, 8i64, 5i64, 12i64, 7i64, 16i64, 9i64, 20i64, 11i64, 24i64, 13i64, 28i64, 15i64, 32i64, 17i64, 36i64, 19i64, 40i64, 21i64, 44i64, 23i64, 48i64, 25i64, 52i64, 27i64, 56i64, 29i64, 60i64, 31i64, 64i64, 33i64, 68i64, 35i64, 72i64, 37i64, 76i64, 39i64] }
-- input { 40i64 21i64 }
-- error: Index \[1021\] out of bounds
-- input { 40i64 39i64 }
-- error: Index \[1039\] out of bounds

entry oob (n: i64) (bad: i64) : []i64 =
  let xs = iota n
  in map (\i -> if i % 2 == 1 then xs[if i == bad then 1000 + i else i] else xs[i] * 2) (iota n)
