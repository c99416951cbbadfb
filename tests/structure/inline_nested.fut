-- A large function (churn) that calls another (mix): both stay functions,
-- called from a map (a kernel, which must then define both) and from a
-- loop on the host. churn takes a tuple and a bool and returns a record.
-- ==
-- structure { Apply 4 }
-- structure gpu { Apply 4 SegMap 1 }
-- input { [3u32, 1000u32, 4000000000u32] 17u32 }
-- output { [313797075u32, 1471339445u32, 3321969459u32] [true, true, false] 551107841u32 }

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

def churn ((a, b): (u32, u32)) (flip: bool) : {h: u32, odd: bool} =
  let (m, e) = mix a b
  let h = if flip then m ^ b else m + a
  let h = h * 0x2545f491 + (h >> 9)
  let h = (h ^ (h << 13)) + 0x6a09e667
  let h = h ^ (h >> 17) ^ (a << 2)
  let h = (h ^ (h << 5)) * 0x9e3779b1
  let g = loop g = h for i < 3 do
    let g = g * 5 + u32.i64 i + b
    let g = g ^ (g >> 3) ^ (g << 11)
    in g - (g >> 7)
  let g = if e then g + 1 else g * 7
  let g = (g >> 4) ^ (g << 28) ^ h
  let g = g + (g >> 1) * 3 - (g << 2)
  let g = g ^ (g >> 19) ^ (a * 0x85ebca6b)
  let g = (g * 0xc2b2ae35) ^ (g >> 16)
  in {h = g ^ (g >> 15), odd = g & 1 == 1}

entry main (xs: []u32) (key: u32) : ([]u32, []bool, u32) =
  let rs = map (\x -> churn (x, key) (x & 4 == 0)) xs
  let t = loop t = key for i < 3 do (churn (t, u32.i64 i) true).h
  let (m, _) = mix t key
  in (map (.h) rs, map (.odd) rs, m)
