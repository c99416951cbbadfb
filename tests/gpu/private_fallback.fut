-- Negative: an if chooses between a private array and a row of the input,
-- so the array it binds lives in one block or the other. Its index
-- function cannot say which, so that private block is not interleaved:
-- each work-item keeps its copy in a contiguous slice instead. Another
-- private array of the same kernel, which never meets the input's block,
-- is still interleaved. (In checksum the rows are computed by the
-- work-items, in private blocks too: its SegRed interleaves all three.)
-- ==
-- structure gpu { SegMap 1 SegRed 1 Private 5 Interleaved 4 }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32], [7i32, 8i32, 9i32]] }
-- output { [107i32, 2791i32, 341i32] }
-- input { empty([0][4]i32) }
-- output { empty([0]i32) }

def main [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\row ->
    let a = loop a = copy row for i < m do a with [i] = a[i] * a[(i + 1) % m]
    let b = if row[0] % 2 == 0 then a else row
    let c = loop c = replicate m 0 for i < m do c with [i] = b[i] * 2 + i32.i64 i
    in loop s = 0 for i < m do s * 3 + b[i] + c[m - 1 - i]) xss

-- ==
-- entry: checksum
-- input { 4000i64 5i64 }
-- output { 495255148i32 }

entry checksum (n: i64) (m: i64) : i32 =
  reduce (+) 0 (main (tabulate_2d n m (\i j -> i32.i64 ((i * 131 + j * 7) % 23))))
