-- ==
-- error: 5:1: error: .*Unexpected end of file, expect

def main = (1 + 2
