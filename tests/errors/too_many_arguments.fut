-- ==
-- error: 6:12: error: .*function 'f' expects 1 argument but is applied to 2

def f (x: i32) = x + 1

def main = f 1 2
