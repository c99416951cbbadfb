-- An entry point whose value is a polymorphic function is polymorphic.
-- ==
-- error: 5:1: error: Entry point functions may not be polymorphic: "main" has a parameter of type t0

entry main = \x -> x
