-- Large functions applied in two places are still inlined when they take
-- an array (sumsq), index an array (lookup: bounds checks can fail) or
-- divide integers (ratio: division by zero is checked).
-- ==
-- structure { Apply 0 }
-- input { [1i64, 2i64, 3i64] 2i64 }
-- output { 86i64 }
-- input { [1i64, 2i64, 3i64] 5i64 }
-- error: out of bounds

def sumsq (xs: []i64) (a: i64) : i64 =
  let s = loop s = 0 for x in xs do s + x * x
  let t = s * 3 + a * 7 - s / 2 + a * a * a
  let u = t + s - a + t * 2 - s * 5 + a * 11 + t * t % 17
  let v = u * 3 - t + s * 2 + a - u % 13 + t * 7 - s * 3
  let w = v + u - t + s - a + v * 2 - u * 3 + t * 5 - s * 7
  in w - w + s + a * 0 + u * 0 + v * 0 + t * 0

def lookup (xs: []i64) (i: i64) : i64 =
  let a = xs[i]
  let b = a * 3 + i * 7 - a * a + i * i * i
  let c = b + a - i + b * 2 - a * 5 + i * 11 + b * b * 17
  let d = c * 3 - b + a * 2 + i - c * 13 + b * 7 - a * 3
  let e = d + c - b + a - i + d * 2 - c * 3 + b * 5 - a * 7
  in e - e + a

def ratio (x: i64) (y: i64) : i64 =
  let a = x / y
  let b = a * 3 + y * 7 - a * a + y * y * y
  let c = b + a - y + b * 2 - a * 5 + y * 11 + b * b * 17
  let d = c * 3 - b + a * 2 + y - c * 13 + b * 7 - a * 3
  let e = d + c - b + a - y + d * 2 - c * 3 + b * 5 - a * 7
  in e - e + a

entry main (xs: []i64) (k: i64) : i64 =
  sumsq xs k + sumsq xs (k + 1) + lookup xs k + lookup xs (k - 1) + ratio 100 k + ratio 7 k
