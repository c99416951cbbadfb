-- u64 values above the i64 range.
-- ==
-- input { 18446744073709551614u64 }
-- output { 6148914691236517204u64 614u64 true }
-- input { 12345u64 }
-- output { 4115u64 345u64 false }

def main (x: u64) : (u64, u64, bool) = (x / 3, x % 1000, x > 9223372036854775807u64)
