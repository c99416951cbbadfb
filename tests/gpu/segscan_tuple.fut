-- Segmented scans of several values in one SegScan: two scans of each row
-- (+ of a map that reads the row's own scalar, so the row's code runs for
-- every element, and * of the row), a fused map output, and (fused in
-- horizontally) a tuple operator on an i64 and an f32: five values,
-- three status words. Entry big scans generated rows that span several
-- work-groups, and many short rows; expected sums and samples from a
-- sequential reference (Python).
-- ==
-- structure gpu { SegScan 2 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] [1i32, -1i32] }
-- output { [[2i32, 6i32, 12i32], [-8i32, -18i32, -30i32]]
--          [[1i32, 2i32, 6i32], [4i32, 20i32, 120i32]]
--          [[2i32, 3i32, 4i32], [5i32, 6i32, 7i32]]
--          [[1i64, 3i64, 6i64], [4i64, 9i64, 15i64]]
--          [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] }
-- input { [[2i32, -3i32], [7i32, 1i32]] [3i32, 0i32] }
-- output { [[12i32, -6i32], [0i32, 0i32]]
--          [[2i32, -6i32], [7i32, 7i32]]
--          [[3i32, -2i32], [8i32, 2i32]]
--          [[2i64, -1i64], [7i64, 8i64]]
--          [[2f32, 2f32], [7f32, 7f32]] }
-- input { empty([0][2]i32) empty([0]i32) }
-- output { empty([0][2]i32) empty([0][2]i32) empty([0][2]i32) empty([0][2]i64) empty([0][2]f32) }

-- ==
-- entry: big
-- input { 2i64 50000i64 }
-- output { [-237470162930i64, -280139927990i64, -56526470i64, 66602110575i64, 25024820415i64]
--          [2000i64, -6460i64, 108i64, -3460i64, -4744i64, -8748i64, -9312i64, 1330i64, -500i64, 0i64, -54i64, 0i64, 0i64, 0i64, 0i64, 0i64, -499i64, 36i64, -53i64, 411i64, 322i64, 231i64, 142i64, 482i64, -500i64, 1615i64, -54i64, 865i64, 1186i64, 2187i64, 2328i64, -665i64, -500i64, 500i64, -54i64, 500i64, 500i64, 500i64, 500i64, 500i64] }
-- input { 50000i64 3i64 }
-- output { [-16509788i64, -3247666382114i64, -54734680i64, -257054798i64, 5760131377i64]
--          [2000i64, -940i64, -468i64, -1640i64, -2924i64, -2196i64, -2760i64, 180i64, -500i64, -66538000i64, 234i64, 410i64, 131610i64, 73370i64, 10345170i64, -115440i64, -499i64, 324i64, 235i64, 411i64, 322i64, 231i64, 142i64, -73i64, -500i64, 235i64, 234i64, 410i64, 731i64, 549i64, 690i64, 45i64, -500i64, 412i64, 234i64, 410i64, 410i64, 319i64, 319i64, 104i64] }
-- input { 7i64 4099i64 }
-- output { [-16938756626i64, -4548343271378i64, -23948078i64, 785028013i64, 7104139695i64]
--          [2000i64, -6244i64, -108i64, -3460i64, -4744i64, -1252i64, -1534i64, 1954i64, -500i64, 0i64, 54i64, 0i64, 0i64, 0i64, 0i64, 0i64, -499i64, 144i64, 55i64, 411i64, 322i64, 231i64, 142i64, 465i64, -500i64, 1561i64, 54i64, 865i64, 1186i64, 626i64, 767i64, -977i64, -500i64, 500i64, 54i64, 500i64, 500i64, 500i64, 500i64, 500i64] }

def scans [n][m] (xss: [n][m]i32) (cs: [n]i32) =
  let (a, b, d) =
    unzip3 (map2 (\row c -> let c2 = c * 2
                           in (scan (+) 0 (map (\x -> x * c2) row), scan (*) 1 row, map (+ 1) row))
                 xss cs)
  let (s, mx) =
    unzip (map (\row -> unzip (scan (\(s1, m1) (s2, m2) -> (s1 + s2, f32.max m1 m2)) (0, -f32.inf)
                                    (map (\x -> (i64.i32 x, f32.i32 x)) row)))
               xss)
  in (a, b, d, s, mx)

entry main [n][m] (xss: [n][m]i32) (cs: [n]i32) = scans xss cs

-- Weighted sums of each output, and each output at positions around
-- group boundaries (row-major).
entry big (n: i64) (m: i64) : ([5]i64, []i64) =
  let xss = tabulate_2d n m (\i j -> i32.i64 ((i * m + j) * 7919 % 1001) - 500)
  let cs = tabulate n (\i -> i32.i64 (i % 5) - 2)
  let (a, b, d, s, mx) = scans xss cs
  let N = n * m
  let outs = [map i64.i32 (flatten a), map i64.i32 (flatten b), map i64.i32 (flatten d), flatten s,
              map i64.f32 (flatten mx)]
  let total (xs: [N]i64) = reduce (+) 0 (map2 (\x i -> x * (i % 1000 + 1)) xs (iota N))
  let at (xs: [N]i64) = map (\p -> if N == 0 then 0 else xs[p % N]) [0, m - 1, m, 4095, 4096, 8191, 8192, N - 1]
  in (map total outs, flatten (map at outs))
