-- Unsigned division by zero inside a map is a run-time error.
-- ==
-- input { [10u32, 20u32] 5u32 }
-- output { [2u32, 4u32] }
-- input { [10u32, 20u32] 0u32 }
-- error: [Dd]ivision by zero

def main (xs: []u32) (d: u32) : []u32 = map (/ d) xs
