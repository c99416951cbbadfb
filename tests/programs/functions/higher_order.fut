-- Functions taking functions as arguments.
-- ==
-- input { 2 }
-- output { 8 32 16 }
-- input { -1 }
-- output { 5 -16 1 }

def twice (f: i32 -> i32) (x: i32) : i32 = f (f x)

def apply_n (f: i32 -> i32) (n: i32) (x: i32) : i32 = loop x for _i < n do f x

def main (x: i32) : (i32, i32, i32) =
  (twice (\y -> y + 3) x, twice (twice (* 2)) x, apply_n (\y -> y * y) 2 x)
