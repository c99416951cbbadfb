-- Polymorphic functions used at several types.
-- ==
-- input { 7 2.5f64 }
-- output { 7 2.5f64 2.5f64 7 true }

def ident 'a (x: a) : a = x

def swap 'a 'b (x: a, y: b) : (b, a) = (y, x)

def main (x: i32) (y: f64) : (i32, f64, f64, i32, bool) =
  let (p, q) = swap (x, y)
  in (ident x, ident y, p, q, ident true)
