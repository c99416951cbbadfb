-- An integer raised to a negative power is an error, also in a parallel
-- map and through the numeric modules' pow.
-- ==
-- input { 2 3 [3, 0] }
-- output { [8, 1] 8 }
-- input { 2 3 [3, -1] }
-- error: [Nn]egative exponent
-- input { 2 -3 [3, 0] }
-- error: [Nn]egative exponent

def main (b: i32) (e: i32) (xs: []i32) : ([]i32, i32) = (map (b **) xs, i32.pow b e)
