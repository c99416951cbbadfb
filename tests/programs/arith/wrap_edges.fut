-- The most negative value divided by -1 (/, %, //, %%), its absolute value
-- and negation wrap, shifts by the width or more (or by a negative amount,
-- read as unsigned) give 0, or -1 for >> of a negative value, and products
-- wrap: Futhark's semantics, in generated C without undefined behaviour
-- (make check-sanitize runs this under UBSan). Each entry returns
-- (a / b, a % b, a // b, a %% b, abs a, -a, a << k, a >> k, a >>> k, a * a).
-- ==
-- entry: i8s
-- input { -128i8 -1i8 8i8 }
-- output { -128i8 0i8 -128i8 0i8 -128i8 -128i8 0i8 -1i8 0i8 0i8 }
-- input { -7i8 2i8 -1i8 }
-- output { -4i8 1i8 -3i8 -1i8 7i8 7i8 0i8 -1i8 0i8 49i8 }
-- input { 100i8 -3i8 7i8 }
-- output { -34i8 -2i8 -33i8 1i8 100i8 -100i8 0i8 0i8 0i8 16i8 }
--
-- entry: i16s
-- input { -32768i16 -1i16 16i16 }
-- output { -32768i16 0i16 -32768i16 0i16 -32768i16 -32768i16 0i16 -1i16 0i16 0i16 }
-- input { 300i16 -7i16 15i16 }
-- output { -43i16 -1i16 -42i16 6i16 300i16 -300i16 0i16 0i16 0i16 24464i16 }
--
-- entry: i32s
-- input { -2147483648i32 -1i32 32i32 }
-- output { -2147483648i32 0i32 -2147483648i32 0i32 -2147483648i32 -2147483648i32 0i32 -1i32 0i32 0i32 }
-- input { -5i32 -1i32 -1i32 }
-- output { 5i32 0i32 5i32 0i32 5i32 5i32 0i32 -1i32 0i32 25i32 }
-- input { 123456789i32 7i32 33i32 }
-- output { 17636684i32 1i32 17636684i32 1i32 123456789i32 -123456789i32 0i32 0i32 0i32 -1757895751i32 }
-- input { -123456789i32 10i32 3i32 }
-- output { -12345679i32 1i32 -12345678i32 -9i32 123456789i32 123456789i32 -987654312i32 -15432099i32 521438813i32 -1757895751i32 }
--
-- entry: i64s
-- input { -9223372036854775808i64 -1i64 64i64 }
-- output { -9223372036854775808i64 0i64 -9223372036854775808i64 0i64 -9223372036854775808i64 -9223372036854775808i64 0i64 -1i64 0i64 0i64 }
-- input { 3037000500i64 -3i64 65i64 }
-- output { -1012333500i64 0i64 -1012333500i64 0i64 3037000500i64 -3037000500i64 0i64 0i64 0i64 -9223372036709301616i64 }
-- input { -7i64 2i64 63i64 }
-- output { -4i64 1i64 -3i64 -1i64 7i64 7i64 -9223372036854775808i64 -1i64 1i64 49i64 }

entry i8s (a: i8) (b: i8) (k: i8) : (i8, i8, i8, i8, i8, i8, i8, i8, i8, i8) =
  (a / b, a % b, a // b, a %% b, i8.abs a, -a, a << k, a >> k, a >>> k, a * a)

entry i16s (a: i16) (b: i16) (k: i16) : (i16, i16, i16, i16, i16, i16, i16, i16, i16, i16) =
  (a / b, a % b, a // b, a %% b, i16.abs a, -a, a << k, a >> k, a >>> k, a * a)

entry i32s (a: i32) (b: i32) (k: i32) : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) =
  (a / b, a % b, a // b, a %% b, i32.abs a, -a, a << k, a >> k, a >>> k, a * a)

entry i64s (a: i64) (b: i64) (k: i64) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) =
  (a / b, a % b, a // b, a %% b, i64.abs a, -a, a << k, a >> k, a >>> k, a * a)
