-- ==
-- error: 4:13: error: .*requires a numeric type

def main = -true
