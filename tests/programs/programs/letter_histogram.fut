-- Case-insensitive letter histogram of a byte string using hist.
-- ==
-- input { [84u8, 104u8, 101u8, 32u8, 113u8, 117u8, 105u8, 99u8, 107u8, 32u8, 98u8, 114u8, 111u8,
--    119u8, 110u8, 32u8, 102u8, 111u8, 120u8, 32u8, 106u8, 117u8, 109u8, 112u8, 115u8, 32u8, 111u8,
--    118u8, 101u8, 114u8, 32u8, 116u8, 104u8, 101u8, 32u8, 108u8, 97u8, 122u8, 121u8, 32u8, 100u8,
--    111u8, 103u8, 44u8, 32u8, 116u8, 119u8, 105u8, 99u8, 101u8, 58u8, 32u8, 84u8, 72u8, 69u8,
--    32u8, 81u8, 85u8, 73u8, 67u8, 75u8] }
-- output { [1, 1, 3, 1, 5, 1, 1, 3, 3, 1, 2, 1, 1, 1, 4, 1, 2, 2, 1, 4, 3, 1, 2, 1, 1, 1] }

def letter_index (c: u8) : i64 =
  if c >= 97 && c <= 122 then i64.u8 (c - 97)
  else if c >= 65 && c <= 90 then i64.u8 (c - 65)
  else -1

def main [n] (s: [n]u8) : [26]i32 =
  hist (+) 0 26 (map letter_index s) (replicate n 1)
