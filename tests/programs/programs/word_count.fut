-- Counting words in a byte string: a word starts at a non-space byte that
-- is at position 0 or follows a space.
-- ==
-- input { [104u8, 101u8, 108u8, 108u8, 111u8, 32u8, 119u8, 111u8, 114u8, 108u8, 100u8] }
-- output { 2 }
-- input { [32u8, 32u8, 116u8, 119u8, 111u8, 32u8, 32u8, 115u8, 112u8, 97u8, 99u8, 101u8, 115u8,
--    32u8, 32u8, 104u8, 101u8, 114u8, 101u8, 32u8] }
-- output { 3 }
-- input { empty([0]u8) }
-- output { 0 }
-- input { [111u8, 110u8, 101u8] }
-- output { 1 }
-- input { [116u8, 97u8, 98u8, 9u8, 97u8, 110u8, 100u8, 10u8, 110u8, 101u8, 119u8, 108u8, 105u8,
--    110u8, 101u8] }
-- output { 3 }

def is_space (c: u8) : bool = c == 32 || c == 10 || c == 9

def main [n] (s: [n]u8) : i32 =
  let starts = map (\i -> !(is_space s[i]) && (i == 0 || is_space s[i - 1])) (iota n)
  in i32.sum (map i32.bool starts)
