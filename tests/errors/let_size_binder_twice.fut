-- A let cannot bind one size name twice.
-- ==
-- error: 6:11: error: Size name also bound at 6:8.

def main (xss: [][]i32) =
  let [n][n] (yss: [n][n]i32) = xss
  in yss
