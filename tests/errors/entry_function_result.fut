-- A function result is eta-expanded into parameters (tests/programs/entries/
-- point_free.fut), but a function inside a tuple cannot leave the program.
-- ==
-- error: 6:1: error: Entry point functions may not be higher-order: "f" returns a value of type \(i32, i32 -> i32\)

entry f (x: i32) = (x, \(y: i32) -> x + y)
