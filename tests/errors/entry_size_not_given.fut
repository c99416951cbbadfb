-- An entry point's size parameter that no parameter type has as an array
-- size cannot be given by the arguments.
-- ==
-- error: 6:10: error: Entry point size parameter .n. only used non-constructively

def main [n] (x: i32) = x + i32.i64 n
