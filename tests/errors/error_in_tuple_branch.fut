-- An error inside one branch of an `if` that returns a tuple is reported
-- at its location, and compilation stops there (the compiler used to go on
-- and abort on the branches' different structure).
-- ==
-- error: 7:61: error: slices with a non-constant stride are not supported

def main (c: bool) (k: i64) (xs: []i32) = if c then (length xs[::k] == 0, 1i32) else (true, 2i32)
