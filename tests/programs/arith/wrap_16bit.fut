-- u16 and i16 products and powers wrap at 16 bits. (C promotes uint16_t
-- operands to int, where 65535 * 65535 overflows: the generated code must
-- multiply in an unsigned type of at least int's width.)
-- ==
-- input { [65535u16, 256u16, 255u16, 40000u16] [65535u16, 256u16, 257u16, 3u16]
--         [65535u16, 3u16, 257u16, 2u16] [3u16, 20u16, 2u16, 16u16]
--         [-32768i16, 181i16, 300i16, -300i16] [-1i16, 181i16, 300i16, 300i16]
--         [-3i16, 7i16, -32768i16, 2i16] [11i16, 9i16, 2i16, 15i16] }
-- output { [1u16, 0u16, 65535u16, 54464u16] [65535u16, 7057u16, 513u16, 0u16]
--          [-32768i16, 32761i16, 24464i16, -24464i16] [19461i16, -16569i16, 0i16, -32768i16] }

def main [n] (a: [n]u16) (b: [n]u16) (c: [n]u16) (d: [n]u16)
             (e: [n]i16) (f: [n]i16) (g: [n]i16) (h: [n]i16) : ([n]u16, [n]u16, [n]i16, [n]i16) =
  (map2 (*) a b, map2 (**) c d, map2 (*) e f, map2 (**) g h)
