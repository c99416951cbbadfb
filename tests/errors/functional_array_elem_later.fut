-- An array's element may not become a function type when inference
-- learns later that it is one (x is put in an array, then applied).
-- ==
-- error: functional type

def f x = ([x], x 2)

def main = (f (\(y: i32) -> y)).1
