-- A local definition may shadow an imported one.
-- ==
-- input { 3 }
-- output { 27 }

import "lib/util"

def square (x: i32) : i32 = x * x * x

def main (x: i32) : i32 = square x
