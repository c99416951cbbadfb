-- Arithmetic precedence and left associativity.
-- ==
-- input { 2 3 4 }
-- output { 14 -5 2 50 -6 }
-- input { 10 -3 5 }
-- output { -5 8 0 -65 30 }

def main (a: i32) (b: i32) (c: i32) : (i32, i32, i32, i32, i32) =
  (a + b * c, a - b - c, a * b % c, a + b * c ** 2, -a * b)
