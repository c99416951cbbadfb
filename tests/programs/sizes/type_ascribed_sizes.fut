-- Array type ascriptions with sizes.
-- ==
-- input { 10 }
-- output { [[10, 11], [12, 13], [14, 15]] }

def main (x: i32) : [3][2]i32 =
  let a : [3][2]i32 = [[x, x + 1], [x + 2, x + 3], [x + 4, x + 5]]
  in a
