-- Downward ranges a..>b and a..b...c with a negative stride.
-- ==
-- input { 5 }
-- output { [5, 4, 3, 2, 1] [5, 3, 1] }
-- input { 4 }
-- output { [4, 3, 2, 1] [4, 2, 0] }

def main (n: i32) : ([]i32, []i32) = (n..>0, n..n-2...0)
