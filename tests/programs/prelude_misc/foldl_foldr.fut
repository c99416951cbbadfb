-- foldl and foldr with a non-associative operator show their order.
-- ==
-- input { [1, 2, 3] }
-- output { 123 321 }
-- input { empty([0]i32) }
-- output { 0 0 }

def main (xs: []i32) : (i32, i32) = (foldl (\acc x -> acc * 10 + x) 0 xs, foldr (\x acc -> acc * 10 + x) 0 xs)
