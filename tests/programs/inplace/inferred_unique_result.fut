-- A function without a declared return type returns unique values where
-- Futhark infers them: parts that alias only consuming parameters or
-- fresh arrays (here two scatters' results), so that a loop may consume
-- them in its next iteration. Without the inference the loop's results
-- aliased the array ys returned beside them, and the loop was rejected.
-- ==
-- input { [0, 0, 0, 0] [3i64, 1i64, 2i64] }
-- output { [0, 2, 1, 2] [false, true, true, true] }

def step (a: *[]i32) (b: *[]bool) (is: []i64) =
  let b = scatter b is (map (const true) is)
  let a = scatter a is (map (\i -> i32.i64 (i % 2) + 1) is)
  in (a, b)

def main (a: *[]i32) (is: []i64) : ([]i32, []bool) =
  let b = replicate (length a) false
  let (a, _, b) =
    loop (a, is, b) while length is > 0 do
      let (ys, _) = unzip (filter (\(i, _) -> i > 0) (zip (map (\i -> i - 1) is) is))
      let (a, b) = step a b is
      in (a, ys, b)
  in (a, b)
