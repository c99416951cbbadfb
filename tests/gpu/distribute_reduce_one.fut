-- A reduction over rows of a value computed by one parallel stage per row
-- (the sum of squares of a matrix-vector product, with the product also
-- returned: the shape of power iteration's normalisation) is distributed
-- too: the dot products are a segmented SegRed that also writes the
-- product, and the squares are summed by a SegRed over the stored dot
-- products afterwards (two kernels), instead of one flat SegRed whose
-- work-items each compute a whole dot product. Entry big generates rows
-- long enough for several work-groups each, for a few lanes each, and
-- many rows of 3 elements (it tabulates the transposed matrix, so that
-- the matrix is built rather than fused into the product). The
-- structure counts both entry points (big also tabulates the matrix and
-- the vector). Expected
-- values from a sequential reference (Python, wrapping i64 arithmetic).
-- Each entry point also keeps the outer version (the flat SegRed above,
-- two kernels), chosen at run time when the rows reach threshold
-- <entry>.suff_outer_par_N (issue 18's multi-versioning): Threshold 2.
-- In big, the map that tabulates the matrix's rows and the vector's
-- elements (fused) is not a perfect nest (a row, then a scalar): it is
-- distributed too, into the rows (one work-item per element of the
-- matrix) and the scalars, with its outer and intra-group versions
-- (Threshold 2, SegMap 2, SegGroup 1 more).
-- ==
-- entry: main
-- structure gpu { Threshold 4 SegMap 3 SegRed 6 SegGroup 1 Kernel 14 }
-- input { [[1i64, 2i64, 3i64], [4i64, 5i64, 6i64]] [1i64, 0i64, -1i64] }
-- output { [-2i64, -2i64] 8i64 }
-- input { empty([0][3]i64) [1i64, 2i64, 3i64] }
-- output { empty([0]i64) 0i64 }

def matvec_norm [n][m] (a: [n][m]i64) (v: [m]i64) : ([n]i64, i64) =
  let r = map (\row -> i64.sum (map2 (*) row v)) a
  in (r, i64.sum (map (\x -> x * x) r))

entry main [n][m] (a: [n][m]i64) (v: [m]i64) : ([n]i64, i64) = matvec_norm a v

-- ==
-- entry: big
-- input { 3i64 100000i64 }
-- output { -163186i64 -554136i64 366697096013i64 }
-- input { 2000i64 100i64 }
-- output { -886i64 18576i64 65020497612000i64 }
-- input { 100000i64 3i64 }
-- output { 66132i64 63329i64 173378733150000i64 }

entry big (n: i64) (m: i64) : (i64, i64, i64) =
  let a = transpose (tabulate_2d m n (\j i -> (i * 7919 + j * 104729 + i * j * 31) % 1000 - 500))
  let v = tabulate m (\j -> (j * 31337) % 201 - 100)
  let (r, t) = matvec_norm a v
  in (r[0], r[n - 1], t)
