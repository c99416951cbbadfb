-- A parameter's type cannot be an array of functions.
-- ==
-- error: 5:21: error: Cannot create array with elements of lifted type "i32 -> bool"

def count_true (ps: [](i32 -> bool)) (x: i32) = length (filter (\p -> p x) ps)

entry main (x: i32) = x
