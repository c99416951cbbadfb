-- Importing the same file twice (directly and through another import) is harmless.
-- ==
-- input { [1, 2] }
-- output { 12 }

import "lib/util"
import "lib/vec"

def main (xs: []i32) : i32 = sum_squares xs + sum xs + square 2
