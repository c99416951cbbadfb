-- ==
-- error: 4:9: error: Entry point functions may not be polymorphic: "g" has type parameter "a"

entry g 'a (x: a) : a = x
