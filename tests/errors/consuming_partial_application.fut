-- A partial application that consumes cannot be passed to map: it would
-- consume the array once per element.
-- ==
-- error: 8:44: error: Argument of functional type .* contains consumption

def set0 (a: *[]i64) (i: i64) : []i64 = let a[i] = 0 in a

def main (n: i64) = let a = iota n in map (set0 a) (iota n)
