-- An error inside one branch of an `if` that returns a tuple is reported
-- at its location, and compilation stops there (the compiler used to go on
-- and abort on the branches' different structure).
-- ==
-- error: 7:45: error: comparing arrays with == is not supported

def main (c: bool) (xs: []i32) = if c then (xs == xs, 1i32) else (true, 2i32)
