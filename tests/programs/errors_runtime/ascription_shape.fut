-- A type ascription with a size that does not match.
-- ==
-- input { [1, -1, 2] }
-- output { 3 }
-- input { [1, 2, 3] }
-- error: [Ss]ize|[Ss]hape|cannot match

def main (xs: []i32) : i32 =
  let ys = filter (> 0) xs
  let zs = ys :> [2]i32
  in zs[0] + zs[1]
