-- Truth tables of &&, || and !.
-- ==
-- input { [false, false, true, true] [false, true, false, true] }
-- output { [false, false, false, true] [false, true, true, true] [true, true, false, false] }

def main (xs: []bool) (ys: []bool) : ([]bool, []bool, []bool) =
  let n = i64.min (length xs) (length ys)
  let xs = take n xs
  let ys = take n ys
  in (map2 (\a b -> a && b) xs ys, map2 (\a b -> a || b) xs ys, map (\a -> !a) xs)
