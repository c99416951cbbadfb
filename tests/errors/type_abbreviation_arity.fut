-- ==
-- error: 6:12: error: Type "vec" expects 1 argument but is given 0

type vec 't = [3]t

def main : vec = [1, 2, 3]
