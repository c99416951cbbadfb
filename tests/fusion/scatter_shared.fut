-- Negative (vertical, no duplication): the value map is also returned, and a scatter
-- cannot return it, so it stays a separate Screma; the index map still fuses.
-- ==
-- structure { Screma 1 Scatter 1 }
-- input { 4i64 [0i64, 1i64, 2i64] [1i32, 2i32, 3i32] }
-- output { [0i32, 101i32, 102i32, 103i32] [101i32, 102i32, 103i32] }

def main [n] (k: i64) (is: [n]i64) (vs: [n]i32) : ([]i32, []i32) =
  let ws = map (\v -> v + 100) vs
  in (scatter (replicate k 0) (map (+1) is) ws, ws)
