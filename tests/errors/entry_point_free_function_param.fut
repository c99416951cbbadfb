-- An entry point whose value is a function takes that function's
-- parameters, which may not be functions themselves.
-- ==
-- error: 7:1: error: Entry point functions may not be higher-order: "main" has a parameter of type i32 -> i32

def apply_to_one (g: i32 -> i32) = g 1
entry main = apply_to_one
