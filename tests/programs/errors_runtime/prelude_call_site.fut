-- A run-time error raised in the prelude's code (head indexes its
-- argument) is reported at the user's call of the prelude function, not
-- in the prelude.
-- ==
-- input { [1, 2, 3] }
-- output { 1 }
-- input { empty([0]i32) }
-- error: prelude_call_site\.fut:11:3: Index \[0\] out of bounds

def main (xs: []i32) : i32 =
  head xs
