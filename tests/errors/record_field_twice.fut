-- A record expression may define a field once.
-- ==
-- error: 5:44: error: Field "a" previously defined at 5:30.

def main (x: i32) = let r = {a = x, b = 1, a = 2} in r.a
