-- ==
-- error: 4:21: error: Operator "&" requires an integer type, but the operand has type f32

def main (x: f32) = x & 1
