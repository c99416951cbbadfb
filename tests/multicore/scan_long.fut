-- Long scans (2^21 iterations: chunks of 2^20 and more on one or two
-- threads): a sum, with a map output fused into it, and a composition of
-- affine maps modulo a prime (associative, not commutative: the chunks'
-- partial results must combine in order). Checked at elements in the
-- first chunk, at chunk boundaries (2^17, 2^18, 2^20 and their
-- neighbours) and in the last one.
-- ==
-- entry: sums
-- input { 2097152i64 }
-- output { [0i64, 37033i64, 393228i64, 786429i64, 3145779i64, 6291453i64] 12i64 [0i64, 1i64, 4i64, 0i64, 0i64, 0i64] }

def picks : [6]i64 = [0, 12345, 131077, 262143, 1048593, 2097151]

entry sums (n: i64) : ([6]i64, i64, [6]i64) =
  let xs = map (\i -> i % 7) (iota n)
  let (ps, doubled) = unzip (scan (\(a, _) (b, y) -> (a + b, y)) (0, 0) (zip xs (map (* 2) xs)))
  let m = reduce i64.max 0 (map (\i -> i % 13) (iota n))
  in (map (\p -> ps[p]) picks, m, map (\p -> doubled[p] % 7) picks)

-- ==
-- entry: affine
-- input { 2097152i64 }
-- output { [1i64, 174378i64, 957572i64, 463584i64, 50290i64, 492032i64] [0i64, 437182i64, 653062i64, 913152i64, 432869i64, 720233i64] }

def modp : i64 = 1000003

entry affine (n: i64) : ([6]i64, [6]i64) =
  let fs = map (\i -> (i % 5 + 1, i % 11)) (iota n)
  let comp (a1, b1) (a2, b2) = ((a2 * a1) % modp, (a2 * b1 + b2) % modp)
  let cs = scan comp (1, 0) fs
  in (map (\p -> cs[p].0) picks, map (\p -> cs[p].1) picks)
