-- ==
-- error: 4:13: error: .*requires bool or an integer type

def main = !1.5
