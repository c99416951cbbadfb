-- A size binder and a variable of the same let cannot share a name.
-- ==
-- error: 6:12: error: Name "n" also bound as a size at 6:8.

def main (xs: []i32) =
  let [n] (n: [n]i32) = xs
  in n
