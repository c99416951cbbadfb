-- Rows whose sizes are an affine function of their position (Lift's
-- position-dependent arrays: a triangle's i + 1, odd widths, a band of
-- constant width, shrinking rows): their offsets and total are closed
-- forms (compiler/lower/irregular.c, affine_sizes), so no scan or
-- reduction of the sizes runs (one SegRed per entry point: the rows'
-- sums). Sizes that
-- become negative, and data of the wrong length, are errors.
-- ==
-- entry: tri
-- input { 4i64 }
-- output { [0i64, 3i64, 12i64, 30i64] }
-- input { 0i64 }
-- output { empty([0]i64) }
-- input { 3i64 }
-- output { [0i64, 3i64, 12i64] }
-- structure gpu { SegScan 0 SegRed 5 }

-- ==
-- entry: odd
-- input { 3i64 }
-- output { [0i64, 6i64, 30i64] }

-- ==
-- entry: band
-- input { 3i64 2i64 }
-- output { [1i64, 5i64, 9i64] }
-- input { 3i64 -1i64 }
-- error: negative size

-- ==
-- entry: down
-- input { 4i64 }
-- output { [45i64, 91i64, 74i64, 21i64] }
-- input { 5i64 }
-- error: negative size

-- ==
-- entry: short
-- input { 4i64 }
-- error: add up to 10, not to the 9

def sums (sizes: []i64) (xs: []i64) = map (\r -> reduce (+) 0 r) (unflatten_irregular sizes xs)

entry tri (n: i64) = sums (map (+ 1) (iota n)) (iota (n * (n + 1) / 2))

entry odd (n: i64) = sums (map (\i -> 2 * i + 1) (iota n)) (iota (n * n))

entry band (n: i64) (k: i64) = sums (map (\_ -> k) (iota n)) (iota (i64.max 0 (n * k)))

entry down (n: i64) = sums (map (\i -> 10 - 3 * i) (iota n)) (iota 22)

entry short (n: i64) = sums (map (+ 1) (iota n)) (iota 9)
