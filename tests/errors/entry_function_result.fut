-- ==
-- error: 4:1: error: .*entry point 'f': result type

entry f (x: i32) = \(y: i32) -> x + y
