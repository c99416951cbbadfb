-- Functions of the unsigned modules.
-- ==
-- input { [200u8, 100u8, 7u8] }
-- output { 200u8 7u8 51u8 307u32 }

def main (xs: []u8) : (u8, u8, u8, u32) =
  (u8.maximum xs, u8.minimum xs, u8.sum xs, u32.sum (map u32.u8 xs))
