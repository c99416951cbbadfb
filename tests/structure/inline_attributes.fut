-- Declaration attributes, as in Futhark: #[noinline] keeps the calls of a
-- small scalar function (twice here, and once in `once`), #[inline]
-- inlines a large one that would otherwise stay a call.
-- ==
-- structure { Apply 3 }
-- input { [1i32, 2i32, 3i32] }
-- output { [4i32, 9i32, 16i32] 7i32 100i32 }

#[noinline]
def sq (x: i32) : i32 = x * x

#[noinline]
def once (x: i32) : i32 = x + 1

#[inline]
def mix (x: u32) (key: u32) : (u32, bool) =
  let h = x ^ key
  let h = (h ^ (h >> 16)) * 0x45d9f3b
  let h = (h ^ (h >> 16)) * 0x45d9f3b
  let h = h ^ (h >> 16)
  let (h, k) = loop (h, k) = (h, key) for i < 4 do
    let h = h * 31 + k + u32.i64 i
    let h = h ^ (h << 5) ^ (h >> 7)
    in (h, k * 1664525 + 1013904223)
  let h = if h & 1 == 0 then h >> 1 else h * 3 + 1
  let h = h ^ (h >> 13) ^ (k << 3)
  let h = (h + 0x9e3779b9) ^ (h >> 11)
  let h = h * 0x27d4eb2d + (h >> 15)
  let h = (h << 7) ^ (h >> 25) ^ k
  let h = h - (h >> 3) * 5
  in (h ^ (h >> 16), h & 2 == 0)

entry main (xs: []i32) : ([]i32, i32, i32) =
  let (a, _) = mix 1 2
  let (b, _) = mix a 3
  in (map (\x -> sq (x + 1)) xs, once 6 + i32.u32 (b - b), sq 10)
