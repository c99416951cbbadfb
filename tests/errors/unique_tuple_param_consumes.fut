-- A '*' inside a tuple parameter consumes that component of the argument.
-- ==
-- error: 7:50: error: Using variable "a", but this was consumed

def f (a: *[]i64, i: i64) : i64 = let a[i] = 7 in a[i]

def main (n: i64) = let a = iota n in f (a, 1) + a[1]
