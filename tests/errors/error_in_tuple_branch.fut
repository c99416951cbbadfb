-- An error inside one branch of an `if` that returns a tuple is reported
-- at its location, and compilation stops there (the compiler used to go on
-- and abort on the branches' different structure).
-- ==
-- error: 7:53: error: the arrays returned by this map have different sizes

def main (c: bool) (xs: []i64) = if c then (length (map (\n -> iota n) xs) == 0, 1i32) else (true, 2i32)
