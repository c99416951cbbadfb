-- Records (also nested) are accepted as entry parameters, one external
-- parameter per field, but not records holding functions.
-- ==
-- error: 6:13: error: Entry point functions may not be higher-order: "main" has a parameter

entry main (p: {r: {x: i32}, f: i32 -> i32}) = p.f p.r.x
