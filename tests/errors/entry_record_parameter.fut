-- Records of primitives are accepted as entry parameters (one external
-- parameter per field), but not records nested in records.
-- ==
-- error: 6:13: error: Entry point "main": parameter type \{r: \{x: i32\}\} is not

entry main (p: {r: {x: i32}}) = p.r.x
