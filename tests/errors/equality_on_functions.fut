-- ==
-- error: 4:13: error: Operator "==" cannot compare values of type i32 -> i32, which contains a function

def main = (\(x: i32) -> x) == (\(y: i32) -> y)
