-- Record field order does not matter for types or values.
-- ==
-- input { 7 8 }
-- output { 7 8 }

def main (a: i32) (b: i32) : (i32, i32) =
  let r1 : {p: i32, q: i32} = {q = b, p = a}
  let r2 : {q: i32, p: i32} = r1
  in (r2.p, r2.q)
