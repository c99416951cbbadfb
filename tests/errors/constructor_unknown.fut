-- A constructor that the sum type does not have.
-- ==
-- error: 7:17: error: Couldn.t match expected type #circle f64 \| #square f64 with actual type #triangle f64 \| \.\.\.: Unshared constructors: #triangle\.

type shape = #circle f64 | #square f64

def s : shape = #triangle 1.0
