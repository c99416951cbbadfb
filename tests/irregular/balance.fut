-- Segmented reductions over the rows of irregular arrays whose lengths
-- differ a lot: one long row among short and empty ones. On a GPU, the
-- lanes that take a row leave a long one (more than 256 elements per
-- lane; any row of 100,000 elements is long) to whole work-groups, which
-- split it (compiler/imp/gpu_red.c, segred_irregular): a commutative sum,
-- a non-commutative operator (the composition of affine maps, modulo a
-- prime), code after the reduction, and an index out of bounds in the
-- long row's elements. The expected values were computed with numpy from
-- the same definitions.
-- ==
-- entry: sums
-- input { 100000i64 }
-- output { [0i64, 3i64, 18i64, 7i64, 27i64, 0i64, 23i64, 58i64, 17i64, 57i64, 0i64, 43i64, 98i64, 27i64, 87i64, 0i64, 63i64, 5003250000i64, 100033i64, 300105i64, 0i64, 200075i64, 400162i64, 100043i64, 300135i64, 0i64, 200095i64, 400202i64, 100053i64, 300165i64, 0i64, 200115i64, 400242i64, 100063i64, 300195i64, 0i64, 200135i64, 400282i64, 100073i64, 300225i64] }
-- input { 3i64 }
-- output { [0i64, 3i64, 18i64, 7i64, 27i64, 0i64, 23i64, 58i64, 17i64, 57i64, 0i64, 43i64, 98i64, 27i64, 87i64, 0i64, 63i64, 102i64, 36i64, 114i64, 0i64, 81i64, 174i64, 46i64, 144i64, 0i64, 101i64, 214i64, 56i64, 174i64, 0i64, 121i64, 254i64, 66i64, 204i64, 0i64, 141i64, 294i64, 76i64, 234i64] }

-- ==
-- entry: affine
-- input { 100000i64 }
-- output { [1i64, 2i64, 360i64, 7i64, 6i64, 1i64, 20i64, 84i64, 3i64, 120i64, 1i64, 7i64, 120i64, 6i64, 14i64, 1i64, 12i64, 936217i64, 3i64, 120i64] [0i64, 1i64, 359i64, 6i64, 75i64, 0i64, 50i64, 28i64, 5i64, 230i64, 0i64, 19i64, 33i64, 4i64, 29i64, 0i64, 41i64, 279997i64, 9i64, 301i64] }

-- ==
-- entry: out_of_bounds
-- input { 100000i64 }
-- error: out of bounds

def rows (n: i64) (k: i64) =
  let sizes = map (\i -> if i == 17 then n else (i * 7) % 5) (iota k)
  in unflatten_irregular sizes (iota (i64.sum sizes))

entry sums (n: i64) : []i64 =
  map (\r -> reduce (+) 0 r + length r) (rows n 40)

def p : i64 = 1000003

def compose (a1: i64, b1: i64) (a2: i64, b2: i64) : (i64, i64) =
  ((a1 * a2) % p, (b1 * a2 + b2) % p)

entry affine (n: i64) : ([]i64, []i64) =
  unzip (map (\r -> reduce compose (1, 0) (map (\x -> (x % 7 + 1, x % 11)) r)) (rows n 20))

entry out_of_bounds (n: i64) : []i64 =
  let small = iota 50000
  in map (\r -> reduce (+) 0 (map (\x -> small[x]) r)) (rows n 20)

