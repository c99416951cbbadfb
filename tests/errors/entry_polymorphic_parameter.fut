-- A parameter that nothing gives a type leaves the entry point
-- polymorphic, which the outside world cannot call.
-- ==
-- error: 6:10: error: Entry point functions may not be polymorphic: "main" has a parameter of type \[\]t0

def main indices (k: i64) = indices[k]
