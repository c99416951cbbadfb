-- while loop: number of Collatz steps.
-- ==
-- input { 1i64 }
-- output { 0 }
-- input { 6i64 }
-- output { 8 }
-- input { 27i64 }
-- output { 111 }
-- input { 97i64 }
-- output { 118 }

def main (n: i64) : i32 =
  let (_, steps) = loop (x, s) = (n, 0) while x != 1 do
                     if x % 2 == 0 then (x / 2, s + 1) else (3 * x + 1, s + 1)
  in steps
