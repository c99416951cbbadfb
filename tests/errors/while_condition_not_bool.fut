-- ==
-- error: 4:38: error: Couldn't match expected type bool with actual type i32

def main (n: i32) = loop i = 0 while i + n do i + 1
