-- ==
-- error: 4:37: error: Type bool of the new value of record field "x" does not match its type i32

def main (r: {x: i32}) = r with x = true
