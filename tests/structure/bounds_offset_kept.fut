-- Offsets in range facts, negative: for i in iota (n - 1), i + 2 may be n
-- (the last i), so that check stays and fires; i - 1 may be negative, so
-- that one stays too (besides iota's check that n - 1 >= 0).
-- ==
-- structure { Assert 3 }
-- input { [1, 4, 9, 16] }
-- error: [Oo]ut of bounds|[Ii]ndex

def main [n] (xs: [n]i32) : []i32 =
  map (\i -> xs[i + 2] + xs[i - 1]) (iota (n - 1))
