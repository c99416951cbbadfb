-- The backward pipe <|.
-- ==
-- input { [1, 2, 3] }
-- output { 9 }

def main (xs: []i32) : i32 = reduce (+) 0 <| map (+ 1) <| xs
