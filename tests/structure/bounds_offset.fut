-- Offsets in range facts: for i in iota (n - 1), both xs[i] and xs[i + 1]
-- are below n (i + 1 < (n - 1) + 1 = n) and i + 1 is not negative, so
-- both bounds checks go (a CSR row's offsets[i] and offsets[i + 1]); the
-- one check left is iota's (n - 1 >= 0: Futhark's range 0..<n - 1).
-- ==
-- structure { Assert 1 }
-- input { [1, 4, 9, 16] }
-- output { [3, 5, 7] }
-- input { [7] }
-- output { empty([0]i32) }

def main [n] (xs: [n]i32) : []i32 =
  map (\i -> xs[i + 1] - xs[i]) (iota (n - 1))
