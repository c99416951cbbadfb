-- ==
-- error: 4:9: error: .*entry point 'g' cannot have type parameters

entry g 'a (x: a) : a = x
