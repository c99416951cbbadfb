-- An allocation whose byte count does not fit in 64 bits is an
-- out-of-memory error at the allocation's source location, never a
-- wrapped (small) block that the program then writes past: 4 bytes times
-- 2^62 elements wraps to 0, 8 times 2^61 too, and 4 * 2^32 * 2^32 as well.
-- Negative sizes stay negative whatever they are multiplied by.
-- ==
-- entry: rep
-- input { 3i64 }
-- output { [7, 7, 7] }
-- input { 4611686018427387904i64 }
-- error: alloc_overflow.fut:22:30: out of memory: the array's size in bytes overflows
-- input { 4611686018427387905i64 }
-- error: alloc_overflow.fut:22:30: out of memory
-- input { -1i64 }
-- error: alloc_overflow.fut:22:30: negative array size

-- ==
-- entry: iot
-- input { 2305843009213693952i64 }
-- error: alloc_overflow.fut:35:30: out of memory: the array's size in bytes overflows

entry rep (n: i64) : []i32 = replicate n 7

-- ==
-- entry: rep2
-- input { 2i64 1i64 }
-- output { [[1u8], [1u8]] }
-- input { 4294967296i64 4294967296i64 }
-- error: alloc_overflow.fut:3[0-9]:[0-9]+: out of memory
-- input { -1i64 -1i64 }
-- error: alloc_overflow.fut:3[0-9]:[0-9]+: negative array size
-- input { 0i64 -5i64 }
-- error: negative array size

entry iot (n: i64) : []i64 = iota n

entry rep2 (n: i64) (m: i64) : [][]u8 = replicate n (replicate m 1)
