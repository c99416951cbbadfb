-- Indexing a parenthesised expression.
-- ==
-- input { [1, 2, 3] }
-- output { 4 3 }

def main (xs: []i32) : (i32, i32) = ((map (* 2) xs)[1], (reverse xs)[0])
