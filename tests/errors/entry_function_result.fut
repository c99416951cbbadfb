-- ==
-- error: 4:1: error: Entry point functions may not be higher-order: "f" returns a value of type i32 -> i32

entry f (x: i32) = \(y: i32) -> x + y
