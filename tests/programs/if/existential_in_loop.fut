-- Ifs inside a loop choosing between a row and a column view of a matrix.
-- ==
-- input { [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]] }
-- output { [9, 15, 21] }

def main (xs: [3][4]i32) : [3]i32 =
  loop acc = replicate 3 0 for i < 3 do
    let r = if i % 2 == 0 then xs[i, :3] else (transpose xs)[i] :> [3]i32
    in map2 (+) acc r
