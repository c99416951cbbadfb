-- A size binder used twice stands for one size: a value whose two sizes
-- are different names does not match it.
-- ==
-- error: 7:12: error: Sizes "a" and "b" do not match

def main [a][b] (xss: [a][b]i32) =
  let [k] (yss: [k][k]i32) = xss
  in k
