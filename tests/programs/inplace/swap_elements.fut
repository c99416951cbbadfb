-- Swapping two elements in place.
-- ==
-- input { [1.0f32, 2.0f32, 3.0f32, 4.0f32] }
-- output { [3.0f32, 4.0f32, 1.0f32, 2.0f32] }

def swap [n] (i: i64) (j: i64) (xs: *[n]f32) : *[n]f32 =
  let xi = xs[i]
  let xj = xs[j]
  let xs[i] = xj
  let xs[j] = xi
  in xs

def main (xs: *[]f32) : []f32 = swap 0 2 xs |> swap 1 3
