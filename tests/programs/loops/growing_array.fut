-- A loop whose array parameter changes size.
-- ==
-- input { 0 }
-- output { [1] }
-- input { 2 }
-- output { [1, 2, 3, 4] }
-- input { 3 }
-- output { [1, 2, 3, 4, 4, 5, 6, 7] }

def main (k: i32) : []i32 =
  loop xs = [1] for i < k do xs ++ map (+ (i + 1)) xs
