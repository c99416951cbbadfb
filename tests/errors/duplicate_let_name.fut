-- ==
-- error: 4:20: error: Name "a" also bound at 4:17.

def main = let (a, a) = (1, 2) in a
