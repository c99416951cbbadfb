-- ==
-- error: 4:21: error: Cannot index a value of type i32, which is not an array

def main (x: i32) = x[0]
