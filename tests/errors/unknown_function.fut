-- ==
-- error: 4:12: error: .*unknown name 'foo'

def main = foo 1 2
