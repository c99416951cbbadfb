-- A let whose pattern binds no name is dead, and so are the assertions
-- and checks inside it (Futhark's dead code elimination removes an
-- assertion whose result is unused): only the live assertion fails.
-- ==
-- input { 4i32 } output { 5i32 }
-- input { -1i32 } output { 0i32 }
-- input { -7i32 } error: Assertion is false: x > -5

def main (x: i32) : i32 =
  let _ = assert (x > 0) ()
  let () = assert (x > 1) ()
  let (_, {a = _}) = (assert (x > 2) 1, {a = [1, 2][i64.i32 x]})
  let y = assert (x > -5) x
  in y + 1
