-- ==
-- error: 4:13: error: Negation "-" requires a numeric type, but the operand has type bool

def main = -true
