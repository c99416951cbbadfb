-- Sums of iota: literal inputs with expected outputs, a case named in
-- quotes, a nobench case that the runner skips and a case that expects an
-- error (skipped by bench as well).
-- ==
-- input { 1000i64 } output { 499500i64 }
-- "a million" input { 1000000i64 } output { 499999500000i64 }
-- nobench input { 7i64 } output { 21i64 }
-- input { -1i64 } error: .

def main (n: i64) : i64 =
  if n < 0 then assert false 0 else reduce (+) 0 (iota n)
