-- Unflattening into a negative number of rows and columns is an error,
-- although their product is the number of elements.
-- ==
-- input { 2i64 3i64 }
-- output { [[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]] }
-- input { -2i64 -3i64 }
-- error: [Ss]ize|[Ss]hape|unflatten

def main (n: i64) (m: i64) : [][]i64 = unflatten (iota (n * m))
