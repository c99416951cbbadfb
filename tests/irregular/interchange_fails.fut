-- A failure in the body of an interchanged loop whose count differs
-- between the elements (tests/irregular/interchange.fut), empty rows
-- included: the masked bodies' checks run for every element in its own
-- iterations.
--
-- Not on OpenCL (no_opencl): a kernel that fails skips its writes, and the
-- kernels after it in one iteration (nothing is read back in between, as
-- the sizes do not change) read the positions' rows from what it did not
-- write: PoCL stopped with a segmentation fault now and then. Kernels do
-- not yet check the failure record before they run (session 31's note).
-- ==
-- tags { no_opencl }
-- input { [3i64, 1i64] [2i64, 3i64] }
-- error: division by zero
-- input { [2i64] [0i64] }
-- error: division by zero
-- input { [3i64, 1i64] [2i64, 0i64] }
-- error: division by zero
-- input { [0i64, 0i64] [2i64, 1i64] }
-- output { [0i64, 1i64, 0i64] }

def main (ns: []i64) (ms: []i64) =
  flatten (map (\(n, m) -> loop r = iota m for i < n do map (+ (10 / (n - i - 1))) r) (zip ns ms))
