-- A failed assertion reports its condition as written in the source, as
-- Futhark does (a condition over several lines is joined into one).
-- ==
-- input { 3 } output { 3 }
-- input { 2 } error: Assertion is false: x % 2 != 0
-- input { 7 } error: Assertion is false: x < 5 && x > -5

def main (x: i32) : i32 =
  let y = assert (x % 2 != 0) x
  in assert (x < 5 &&
             x > -5) y
