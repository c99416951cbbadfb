-- iota's result size depends on its argument, so it cannot stand for
-- a -> b, where both results would have the same type b.
-- ==
-- error: 8:49: error: Cannot apply "twice" to "iota" .invalid type.. .*parameter "n" used as a size would go out of scope

def twice '^a '^b (f: a -> b) (x: a) (y: a) : (b, b) = (f x, f y)

def main (n: i64) (m: i64) = let (a, b) = twice iota n m in map2 (+) a b
