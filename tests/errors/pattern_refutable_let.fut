-- A let pattern must match every value of its type.
-- ==
-- error: 8:8: error: Refutable pattern not allowed here\. Unmatched cases: #none$

type opt = #some i32 | #none

def get (x: opt) : i32 =
  let (#some y) = x
  in y
