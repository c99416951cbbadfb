-- ==
-- error: 4:13: error: .*contains a function

def main = (\(x: i32) -> x) == (\(y: i32) -> y)
