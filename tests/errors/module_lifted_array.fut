-- A type^ may be a function: no arrays of it.
-- ==
-- error: 7:10: error: Cannot create array with elements of lifted type "m.t" .might contain function.

module m : {type^ t} = {type^ t = i32 -> i32}

def xs : []m.t = []

def main (x: i32) = x
