-- A name that starts with an underscore may be bound (to say it is not
-- used), not used.
-- ==
-- error: 6:32: error: Name "_x" starts with an underscore

def main (_x: i32) : i32 = 1 + _x
