-- Benchmark: sparse matrix-vector product with a CSR matrix
-- (peers: spmv_csr_2^20x16).  Row i holds the entries offsets[i] ..
-- offsets[i+1]-1 of cols and vals.  A map over rows of the sum of a row's
-- products: an irregular segmented reduction (its width is read in the
-- map's body).
-- ==
-- input { [0, 2, 2, 5] [0, 2, 1, 0, 2] [1.0f32, 2.0f32, 3.0f32, 4.0f32, 5.0f32]
--         [1.0f32, 10.0f32, 100.0f32] }
-- output { [201.0f32, 0.0f32, 534.0f32] }

def main [r1][nnz][m] (offsets: [r1]i32) (cols: [nnz]i32) (vals: [nnz]f32) (x: [m]f32)
       : [r1 - 1]f32 =
  map (\i ->
         let lo = i64.i32 offsets[i]
         let hi = i64.i32 offsets[i + 1]
         in f32.sum (map2 (\c v -> v * x[i64.i32 c]) cols[lo:hi] vals[lo:hi]))
      (iota (r1 - 1))
