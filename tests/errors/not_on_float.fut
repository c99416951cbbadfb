-- ==
-- error: 4:13: error: Operator "!" requires bool or an integer type, but the operand has type f64

def main = !1.5
