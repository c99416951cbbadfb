-- Palindrome check on letters only, ignoring case.
-- ==
-- input { [65u8, 32u8, 109u8, 97u8, 110u8, 44u8, 32u8, 97u8, 32u8, 112u8, 108u8, 97u8, 110u8, 44u8,
--    32u8, 97u8, 32u8, 99u8, 97u8, 110u8, 97u8, 108u8, 58u8, 32u8, 80u8, 97u8, 110u8, 97u8, 109u8,
--    97u8] }
-- output { true }
-- input { [104u8, 101u8, 108u8, 108u8, 111u8] }
-- output { false }
-- input { empty([0]u8) }
-- output { true }
-- input { [65u8, 98u8, 98u8, 97u8] }
-- output { true }

def lower (c: u8) : u8 = if c >= 65 && c <= 90 then c + 32 else c

def main (s: []u8) : bool =
  let t = map lower (filter (\c -> (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) s)
  in all id (map2 (==) t (reverse t))
