-- A program with both main and another entry point.
-- ==
-- entry: main
-- input { 41i64 }
-- output { 42i64 }

-- ==
-- entry: negate
-- input { 5i64 }
-- output { -5i64 }

entry negate (x: i64) : i64 = -x

def main (x: i64) : i64 = x + 1
