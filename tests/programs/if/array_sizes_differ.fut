-- Branches may return arrays of different sizes.
-- ==
-- input { true 4i64 }
-- output { [0i64, 1i64, 2i64, 3i64] }
-- input { false 4i64 }
-- output { [7i64, 8i64] }
-- input { true 0i64 }
-- output { empty([0]i64) }

def main (b: bool) (n: i64) : []i64 = if b then iota n else [7, 8]
