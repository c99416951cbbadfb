-- unflatten finds its sizes n and m in the size n * m of its argument, which
-- may be a product of literals, as in take (2 * 3) xs: n is 2 and m is 3,
-- although the size is also 6.
-- ==
-- input { [1, 2, 3, 4, 5, 6, 7, 8] }
-- output { 9 [6, 15] [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }

def main (xs: [8]i32) =
  let thirds = loop acc = 0 for row in unflatten (take (2 * 3) xs) do acc + row[2]
  let sums = map i32.sum (unflatten (take (2 * 3) xs))
  let cube = unflatten_3d (take (2 * 2 * 2) xs)
  in (thirds, sums, cube)
