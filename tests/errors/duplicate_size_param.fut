-- A parameter may not have the name of a size parameter.
-- ==
-- error: 5:12: error: Name "m" also bound at 5:7.

def f [m] (m: [m]i64) = m

def main = f [1, 2]
