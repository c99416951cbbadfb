-- Each work-item sorts a window of its input in a private array (an
-- insertion sort: in-place updates in a for loop around a while loop,
-- both carrying the array) and returns the sorted window, copied out of
-- the interleaved block into its output row.
-- ==
-- entry: main
-- structure gpu { SegMap 2 SegRed 1 Private 2 Interleaved 2 }
-- input { 3i64 [5i32, 1i32, 4i32, 2i32, 3i32, 0i32] }
-- output { [[1i32, 4i32, 5i32], [1i32, 2i32, 4i32], [2i32, 3i32, 4i32], [0i32, 2i32, 3i32]] }
-- input { 1i64 [7i32, 6i32] }
-- output { [[7i32], [6i32]] }

-- ==
-- entry: medians
-- input { 20000i64 9i64 }
-- output { 10076535i64 }

def sort_window [n] (k: i64) (xs: [n]i32) (i: i64) : [k]i32 =
  let a = map (\j -> xs[i + j]) (iota k)
  in loop a for j in 1..<k do
       let (a, _) =
         loop (a, l) = (a, j) while l > 0 && a[l - 1] > a[l] do
           let t = a[l]
           let a[l] = a[l - 1]
           let a[l - 1] = t
           in (a, l - 1)
       in a

def main [n] (k: i64) (xs: [n]i32) : [][k]i32 =
  map (sort_window k xs) (iota (n - k + 1))

-- The sum of the medians of every window of a pseudo-random sequence.
entry medians (n: i64) (k: i64) : i64 =
  let xs = map (\i -> i32.i64 ((i * 7919 + 13) % 1009)) (iota n)
  in reduce (+) 0 (map (\i -> i64.i32 (sort_window k xs i)[k / 2]) (iota (n - k + 1)))
