-- An invalid range fails with Futhark's message, which names the second
-- element only when the range has one.
-- ==
-- entry: incl
-- input { 5 1 } error: Range 5\.\.\.1 is invalid
-- ==
-- entry: upto
-- input { 5 1 } error: Range 5\.\.<1 is invalid
-- ==
-- entry: downto
-- input { 1 5 } error: Range 1\.\.>5 is invalid
-- ==
-- entry: stepped
-- input { 1 0 5 } error: Range 1\.\.0\.\.\.5 is invalid
-- input { 1 1 5 } error: Range 1\.\.1\.\.\.5 is invalid

entry incl (a: i32) (b: i32) : []i32 = a...b
entry upto (a: i32) (b: i32) : []i32 = a..<b
entry downto (a: i32) (b: i32) : []i32 = a..>b
entry stepped (a: i32) (s: i32) (b: i32) : []i32 = a..s...b
