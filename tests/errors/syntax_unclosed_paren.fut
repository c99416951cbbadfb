-- ==
-- error: 5:1: error: .*unexpected end of file, expect

def main = (1 + 2
