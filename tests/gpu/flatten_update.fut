-- Flattening (compiler/passes/flatten.c): in-place updates of arrays
-- whose length differs between elements: one element of an iota (whose
-- flat array is the descriptor's positions: the scatter writes into a
-- copy, the positions stay as they are for the reduction after it), a
-- slice updated with an array of another length bound in the body, and
-- a slice updated with an array of one length for every element. Each
-- is a scatter into the element's segment of the flat array. A slice
-- past the end fails its bounds check.
-- ==
-- structure gpu { Host 0 Scatter 3 }
-- input { [6i64, 7i64, 8i64, 2i64, 3i64] [0i64, 1i64, 2i64, 0i64, 1i64] [2i64, 3i64, 1i64, 0i64, 2i64] }
-- output { [29i64, 35i64, 42i64, 15i64, 17i64] [24i64, 45i64, 26i64, 1i64, 10i64] [314i64, 318i64, 323i64, 300i64, 300i64] }
-- input { [3i64] [2i64] [1i64] }
-- error: out of bounds

def main [k] (xs: [k]i64) (is: [k]i64) (vs: [k]i64) : ([k]i64, [k]i64, [k]i64) =
  unzip3 (map3 (\x i v ->
    let a = iota x
    let a[0] = 7
    let b = iota x with [i:i + v] = map (* 10) (iota v)
    let c = iota x with [i:i + 2] = [100, 200]
    in (reduce (+) 0 a + a[0], reduce (+) 0 b, reduce (+) 0 c)) xs is vs)
