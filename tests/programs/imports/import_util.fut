-- Importing functions from a file in a subdirectory.
-- ==
-- input { [1, 2, 3] }
-- output { 6 [1, 4, 9] }

import "lib/util"

def main (xs: []i32) : (i32, []i32) = (sum xs, map square xs)
