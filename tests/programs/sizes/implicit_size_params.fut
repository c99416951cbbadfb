-- Sizes that the types of a definition share without naming them are size
-- parameters of the definition: witness_of gives an array of () with the
-- size of its argument, and size_of reads that size back, through f,
-- whose parameter has no type annotation, and main, whose has [].
-- ==
-- input { [1, 2, 3] }
-- output { 3i64 [1, 2, 3] }
-- input { empty([0]i32) }
-- output { 0i64 empty([0]i32) }

type witness [n] = [n]()

def witness_of [n] 't (_: [n]t) : witness [n] = replicate n ()

def size_of [n] (_: witness [n]) : i64 = n

def f xs = (size_of (witness_of xs), xs)

def main (xs: []i32) = f xs
