-- ==
-- error: 4:21: error: Cannot access field "y" of a value of type i32, which is not a record

def main (x: i32) = x.y
