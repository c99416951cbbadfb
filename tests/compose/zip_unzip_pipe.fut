-- A |> pipeline through tuples: map to pairs, unzip, map2, zip, map. All
-- are maps of the same width reading each other at the same index, so they
-- fuse into one SegMap with two outputs: 1 kernel. Futhark's `/` and `%`
-- on signed integers round towards negative infinity (-13 / 10 == -2,
-- -13 % 10 == 7).
-- ==
-- structure gpu { SegMap 1 Kernel 1 }
-- input { [123i32, 45i32, 7i32, -13i32] }
-- output { [1215i32, 409i32, 7i32, -195i32] [3i32, 5i32, 7i32, 7i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) }
-- input @ data/zip_unzip_pipe.in
-- output @ data/zip_unzip_pipe.out

def split_digit (x: i32) : (i32, i32) = (x / 10, x % 10)

def main (xs: []i32) : ([]i32, []i32) =
  let (tens, ones) = xs |> map split_digit |> unzip
  let digit_sum = map2 (+) tens ones
  let weighted = zip tens digit_sum |> map (\(t, d) -> t * 100 + d)
  in (weighted, ones)
