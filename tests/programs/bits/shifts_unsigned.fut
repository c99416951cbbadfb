-- Right shift on unsigned types is logical.
-- ==
-- input { 4026531840u32 129u8 }
-- output { 251658240u32 0u32 64u8 2u8 }
-- input { 305419896u32 3u8 }
-- output { 19088743u32 591751040u32 1u8 6u8 }

def main (x: u32) (y: u8) : (u32, u32, u8, u8) = (x >> 4, x << 4, y >> 1, y << 1)
