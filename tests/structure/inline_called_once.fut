-- The same large function applied in one place only is inlined: a call
-- would save no code.
-- ==
-- structure { Apply 0 Loop 1 }
-- input { [0u32, 1u32, 2u32, 12345u32, 4294967295u32, 77u32] 99u32 }
-- output { [588750157u32, 1268174314u32, 916720415u32, 1491168345u32, 1468670535u32, 1360892573u32]
--          [false, true, false, true, true, true] }

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

entry main (xs: []u32) (key: u32) : ([]u32, []bool) =
  unzip (map (\x -> mix x key) xs)
