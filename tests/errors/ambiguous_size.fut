-- The size parameter of f is in the type of its argument's parameter only;
-- the lambda given for it does not fix it, so n is not known at the call.
-- ==
-- error: 8:12: error: Ambiguous size "n" arising from instantiated size parameter of "f"

def f [n] (g: [n]i64 -> i64) : i64 = n + g (replicate n 0)

def main = f (\xs -> xs[0])
