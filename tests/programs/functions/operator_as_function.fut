-- Defining an operator in prefix form and passing it to reduce.
-- a <+> b = (1+a)(1+b) - 1 is associative with neutral element 0.
-- ==
-- input { [1, 2, 3] }
-- output { 23 11 }
-- input { empty([0]i32) }
-- output { 0 11 }

def (<+>) (a: i32) (b: i32) : i32 = a + b + a * b

def main (xs: []i32) : (i32, i32) = (reduce (<+>) 0 xs, 2 <+> 3)
