-- User-defined infix operators, with fixity from their first character.
-- ==
-- input { 3 4 }
-- output { 14 26 15 }

def (a: i32, b: i32) +^ (c: i32, d: i32) : (i32, i32) = (a + c, b + d)

def (x: i32) *^ (y: i32) : i32 = x * y + 1

def main (x: i32) (y: i32) : (i32, i32, i32) =
  let (p, q) = (x, y) +^ (1, 2) +^ (10, 20)
  in (p, q, 2 + x *^ y)
