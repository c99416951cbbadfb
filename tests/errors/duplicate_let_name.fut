-- ==
-- error: 4:20: error: .*'a' is bound twice

def main = let (a, a) = (1, 2) in a
