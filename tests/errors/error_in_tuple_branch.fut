-- An error inside one branch of an `if` that returns a tuple is reported
-- at its location, and compilation stops there (the compiler used to go on
-- and abort on the branches' different structure).
-- ==
-- error: 7:53: error: cannot determine the sizes of this unflatten

def main (c: bool) (xs: []i64) = if c then (length (unflatten (filter (> 0) xs)) == 0, 1i32) else (true, 2i32)
