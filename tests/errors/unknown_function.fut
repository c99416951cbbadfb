-- ==
-- error: 4:12: error: Unknown name "foo"

def main = foo 1 2
