-- ==
-- error: 4:21: error: .*cannot index a value of type i32

def main (x: i32) = x[0]
