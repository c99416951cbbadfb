-- ==
-- error: 4:20: error: Name "a" is bound twice .duplicate parameter or pattern name.

def main = let (a, a) = (1, 2) in a
