-- A type parameter declared without ^ ('a) may not stand for a function
-- type, also when the function is only known later: here the element of
-- the array that mk makes.
-- ==
-- error: 9:16: error: .*functional type i32 -> i32 is not allowed here

def mk 'a (x: a) : []a = [x]

def main = mk (\(x: i32) -> x + 1)
