-- ==
-- error: 4:14: error: Unknown type "vector"

def main (x: vector) = x
