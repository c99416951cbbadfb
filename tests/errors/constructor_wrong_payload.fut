-- A constructor's payload must have the types its sum type declares.
-- ==
-- error: 7:18: error: Couldn't match expected type #circle f64 \| #square f64 with actual type #circle bool \| \.\.\.: types f64 and bool do not match.

type shape = #circle f64 | #square f64

def s : shape = (#circle true)
