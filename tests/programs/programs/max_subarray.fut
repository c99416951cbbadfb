-- Maximum subarray sum (Kadane) with foldl over a tuple state.
-- ==
-- input { [-2, 1, -3, 4, -1, 2, 1, -5, 4] }
-- output { 6 }
-- input { [-1, -2] }
-- output { 0 }
-- input { [5] }
-- output { 5 }

def main (xs: []i32) : i32 =
  let (best, _) = foldl (\(best, cur) x -> let cur' = i32.max 0 (cur + x)
                                          in (i32.max best cur', cur')) (0, 0) xs
  in best
