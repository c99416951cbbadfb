-- zip4/unzip4 and zip5/unzip5.
-- ==
-- input { [1] [2] [3] [4] [5] }
-- output { [1] [4] [5] }

def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) (e: [n]i32) : ([n]i32, [n]i32, [n]i32) =
  let (p, _, _, s) = unzip4 (zip4 a b c d)
  let (_, _, _, _, v) = unzip5 (zip5 a b c d e)
  in (p, s, v)
