-- Only the last brackets of an update path may hold a slice: the
-- elements of a slice's result are not those of the array.
-- ==
-- error: 8:15: error: Only the last brackets of an update path may hold a slice.

def main (xss: *[4][3]i32) : [4][3]i32 =
  let r = {a = xss}
  in (r with a[0:2][1] = [0, 0, 0]).a
