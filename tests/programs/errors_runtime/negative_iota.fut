-- An array of negative size (iota of a negative number) is a run-time
-- error that says so, not an out-of-memory report.
-- ==
-- input { 3i64 }
-- output { [0i64, 1i64] }
-- input { 0i64 }
-- error: negative

def main (n: i64) : []i64 = iota (n - 1)
