-- Partial application of curried functions.
-- ==
-- input { [1, 2] }
-- output { [31, 32] [4, 5] }

def add3 (a: i32) (b: i32) (c: i32) : i32 = a + b + c

def main (xs: []i32) : ([]i32, []i32) =
  let f = add3 10
  let g = f 20
  in (map g xs, map (add3 1 2) xs)
