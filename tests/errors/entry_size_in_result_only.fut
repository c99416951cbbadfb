-- The arguments of an entry point must give its size parameters: n here
-- would have to come from the caller's choice of result type.
-- ==
-- error: 6:27: error: Entry point functions must not be size-polymorphic in their return type

entry main [n] (x: i32) : [n]i32 = replicate n x
