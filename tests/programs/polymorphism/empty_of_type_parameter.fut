-- Empty arrays whose element type is a type parameter of the enclosing
-- function take the type of each call (tuples included).
-- ==
-- input { [1, 2, 3] [true, false] }
-- output { [3, 2, 1] [false, true] 0i64 [2, 1] [1.5f32, 1.5f32] }

def rev 'a (xs: []a) : []a = loop acc = [] for x in xs do [x] ++ acc

def none 'a (_: a) : []a = []

def main (xs: []i32) (bs: []bool) =
  let ps = rev (zip xs (map f32.i32 xs))
  let (is, fs) = unzip (filter (\(i, _) -> i < 3) ps)
  in (rev xs, rev bs, length (none 1i64), is, map (\_ -> 1.5f32) fs)
