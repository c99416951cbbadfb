-- ==
-- error: 4:14: error: .*unknown type 'vector'

def main (x: vector) = x
