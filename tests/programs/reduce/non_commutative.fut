-- Reduction with an associative but non-commutative operator (last non-zero).
-- ==
-- input { [0, 3, 0, 5, 0, 0] }
-- output { 5 }
-- input { [0, 0] }
-- output { 0 }
-- input { [7, 0, 1] }
-- output { 1 }

def main (xs: []i32) : i32 = reduce (\a b -> if b != 0 then b else a) 0 xs
