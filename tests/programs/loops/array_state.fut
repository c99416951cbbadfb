-- A loop carrying an array, updated in place.
-- ==
-- input { 5i64 }
-- output { [0i64, 1i64, 5i64, 14i64, 30i64] }
-- input { 0i64 }
-- output { empty([0]i64) }

def main (n: i64) : [n]i64 =
  loop xs = replicate n 0 for i < n do
    xs with [i] = i * i + (if i > 0 then xs[i - 1] else 0)
