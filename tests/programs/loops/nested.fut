-- Nested for loops.
-- ==
-- input { 3i64 4i64 }
-- output { 18i64 }
-- input { 0i64 5i64 }
-- output { 0i64 }
-- input { 10i64 10i64 }
-- output { 2025i64 }

def main (n: i64) (m: i64) : i64 =
  loop acc = 0 for i < n do
    loop acc for j < m do
      acc + i * j
