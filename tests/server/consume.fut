-- Server-mode test program: an entry point that consumes its array argument
-- (an in-place update of a unique parameter) and one that does not.

entry bump (xs: *[]i32) (i: i64) : []i32 = xs with [i] = xs[i] + 100

entry sum (xs: []i32) : i32 = reduce (+) 0 xs
