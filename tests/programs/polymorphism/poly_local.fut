-- Local polymorphic function used at two types.
-- ==
-- input { 1 true }
-- output { 3 true }

def main (x: i32) (y: bool) : (i32, bool) =
  let twice 'a (f: a -> a) (v: a) : a = f (f v)
  in (twice (+ 1) x, twice (\b -> !b) y)
