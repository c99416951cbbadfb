-- ==
-- error: 4:21: error: Cannot apply "x" as function, as it has type: i32

def main (x: i32) = x 2
