-- Caesar cipher over letters, leaving other bytes alone (negative shifts too).
-- ==
-- input { [72u8, 101u8, 108u8, 108u8, 111u8, 44u8, 32u8, 87u8, 111u8, 114u8, 108u8, 100u8] 3 }
-- output { [75u8, 104u8, 111u8, 111u8, 114u8, 44u8, 32u8, 90u8, 114u8, 117u8, 111u8, 103u8] }
-- input { [120u8, 121u8, 122u8, 32u8, 65u8, 66u8, 67u8] 2 }
-- output { [122u8, 97u8, 98u8, 32u8, 67u8, 68u8, 69u8] }
-- input { [65u8, 116u8, 116u8, 97u8, 99u8, 107u8, 32u8, 97u8, 116u8, 32u8, 100u8, 97u8, 119u8,
--    110u8] -1 }
-- output { [90u8, 115u8, 115u8, 122u8, 98u8, 106u8, 32u8, 122u8, 115u8, 32u8, 99u8, 122u8, 118u8,
--    109u8] }

def shift_letter (k: i32) (c: u8) : u8 =
  let rot (base: u8) = u8.i32 ((i32.u8 (c - base) + k) % 26) + base
  in if c >= 97 && c <= 122 then rot 97
     else if c >= 65 && c <= 90 then rot 65
     else c

def main (s: []u8) (k: i32) : []u8 = map (shift_letter k) s
