-- xs[i] with i the index of `for i < n` and xs : [n]i32 needs no bounds check.
-- ==
-- structure { Assert 0 Loop 1 }
-- input { [1, 2, 3, 4, 5] }
-- output { 15 }
-- input { empty([0]i32) }
-- output { 0 }

def main [n] (xs: [n]i32) : i32 =
  loop acc = 0 for i < n do acc + xs[i]
