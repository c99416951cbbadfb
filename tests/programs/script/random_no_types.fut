-- A random input with no types is the empty input of an entry point
-- without parameters, as Futhark allows (its tests/modules/sizes8.fut).
-- ==
-- entry: six
-- random input { } output { 6i64 }

entry six = i64.sum [1, 2, 3]
