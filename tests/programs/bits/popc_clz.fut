-- Population count and leading zero count.
-- ==
-- input { 1 1u64 1u8 }
-- output { 1 31 1 63 1 7 }
-- input { 0 0u64 0u8 }
-- output { 0 32 0 64 0 8 }
-- input { -1 18446744073709551615u64 255u8 }
-- output { 32 0 64 0 8 0 }
-- input { 15790080 1099511627781u64 24u8 }
-- output { 8 8 3 23 2 3 }

def main (x: i32) (y: u64) (z: u8) : (i32, i32, i32, i32, i32, i32) =
  (i32.popc x, i32.clz x, u64.popc y, u64.clz y, u8.popc z, u8.clz z)
