-- Zipping an array with itself: the size check d == d folds away.
-- ==
-- structure { Assert 0 Screma 1 }
-- input { [1.5f32, 2.0f32] }
-- output { [2.25f32, 4.0f32] }

def main (xs: []f32) : []f32 = map2 (*) xs xs
