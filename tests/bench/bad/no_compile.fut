-- A program with a type error: bench reports the failed compilation and
-- records its dataset as failed.
-- ==
-- input { 1 } output { 1 }

def main (x: i32) : i32 = x + true
