-- ==
-- error: 6:12: error: .*type 'vec' expects 1 argument

type vec 't = [3]t

def main : vec = [1, 2, 3]
