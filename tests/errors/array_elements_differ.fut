-- ==
-- error: 4:16: error: Couldn't match expected type i32 with actual type bool: bool is not a numeric type

def main = [1, true]
