-- Vertical: map into map composes the lambdas; the intermediate array is gone.
-- ==
-- structure { Screma 1 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [6i32, 9i32, 12i32, 15i32, 18i32] }
-- input { [-3i32, 0i32, 7i32, 10i32, -8i32, 2i32] }
-- output { [-6i32, 3i32, 24i32, 33i32, -21i32, 9i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) }

def main (xs: []i32) : []i32 = map (\x -> x * 3) (map (\x -> x + 1) xs)
