-- #[unsafe] on an expression drops the checks that --unsafe drops
-- (assertions, bounds and division checks) inside it, and only there.
-- ==
-- entry: unchecked
-- input { 3 } output { 1 }
-- input { 4 } output { 2 }

-- ==
-- entry: checked
-- input { 3 } error: Assertion is false

entry unchecked (x: i32) : i32 = #[unsafe] assert (x % 2 == 0) (x / 2)

entry checked (x: i32) : i32 = assert (x % 2 == 0) (x / 2)
