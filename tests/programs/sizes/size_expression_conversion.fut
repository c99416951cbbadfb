-- A result size computed from a parameter of another integer type than
-- i64 (a radix sort's histogram of 2^bits bins: [i64.u32 (1u32 << bits)]):
-- a call's result has the size with the argument in place of the
-- parameter (a name, a literal, an entry parameter), so that unflatten
-- of the rows flattened again knows both sizes, and two calls with the
-- same argument give rows of the same size.
-- ==
-- entry: named literal param
-- input { [[1u32, 2u32], [3u32, 4u32], [5u32, 6u32]] }
-- output { [[1u16, 1u16, 1u16, 1u16, 1u16, 1u16, 1u16, 1u16],
--           [3u16, 3u16, 3u16, 3u16, 3u16, 3u16, 3u16, 3u16],
--           [5u16, 5u16, 5u16, 5u16, 5u16, 5u16, 5u16, 5u16]] }
-- entry: sum_twice
-- input { 2u8 [[1u32, 2u32], [3u32, 4u32]] }
-- output { [[2u16, 2u16, 2u16, 2u16], [6u16, 6u16, 6u16, 6u16]] }

def bins [n] (bits: u32) (xs: [n]u32) : [i64.u32 (1u32 << bits)]u16 =
  replicate (i64.u32 (1u32 << bits)) (u16.u32 xs[0])

def bins8 [n] (bits: u8) (xs: [n]u32) : [i64.u8 (1u8 << bits)]u16 =
  replicate (i64.u8 (1u8 << bits)) (u16.u32 xs[0])

entry named [m] (xss: [m][2]u32) =
  let bits = 3u32
  in unflatten (flatten (map (bins bits) xss))

entry literal [m] (xss: [m][2]u32) =
  map (bins 3u32) xss |> flatten |> unflatten

entry param [m] (xss: [m][2]u32) =
  let h = map (bins8 3u8) xss
  in transpose h |> flatten |> unflatten |> transpose

entry sum_twice [m] (bits: u8) (xss: [m][2]u32) =
  map2 (map2 (+)) (map (bins8 bits) xss) (map (bins8 bits) xss)
