-- ==
-- error: 4:46: error: Recursion is not supported: "f" refers to itself

def f (x: i32) : i32 = if x == 0 then 0 else f (x - 1)

def main = f 3
