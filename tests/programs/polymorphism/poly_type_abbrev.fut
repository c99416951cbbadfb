-- Parametric type abbreviations.
-- ==
-- input { [5, 6] }
-- output { 7 [5, 6] }

type pair 'a = (a, a)
type vec [n] 't = [n]t

def sum_pair (p: pair i32) : i32 = p.0 + p.1

def dup [n] 't (v: vec [n] t) : pair (vec [n] t) = (v, v)

def main (xs: []i32) : (i32, []i32) =
  let (a, _) = dup xs
  in (sum_pair (3, 4), a)
