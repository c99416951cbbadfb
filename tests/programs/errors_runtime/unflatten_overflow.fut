-- unflatten checks that the new shape has as many elements as the array
-- without wrapping the product: 2^32 x 2^32 wraps to 0 in 64 bits, and an
-- empty array must not be seen as a [2^32][2^32] array read out of bounds.
-- ==
-- input { 2i64 2i64 [1, 2, 3, 4] }
-- output { 4 }
-- input { 4294967296i64 4294967296i64 empty([0]i32) }
-- error: Cannot unflatten an array of size 0 to shape \[4294967296\]\[4294967296\]
-- input { 4611686018427387904i64 4i64 empty([0]i32) }
-- error: Cannot unflatten
-- input { -2i64 -2i64 [1, 2, 3, 4] }
-- error: Cannot unflatten

def main (n: i64) (m: i64) (xs: []i32) : i32 =
  let ys = unflatten (xs :> [n * m]i32)
  in ys[n - 1, m - 1]
