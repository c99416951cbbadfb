-- ==
-- error: 6:12: error: Cannot apply "f" to argument #2 "2", as "f" only takes 1 argument

def f (x: i32) = x + 1

def main = f 1 2
