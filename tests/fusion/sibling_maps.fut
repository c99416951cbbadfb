-- Horizontal: sibling maps over one array become one Screma with two outputs.
-- ==
-- structure { Screma 1 }
-- input { [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { [2i32, 3i32, 4i32, 5i32, 6i32] [2i32, 4i32, 6i32, 8i32, 10i32] }

def main (xs: []i32) : ([]i32, []i32) = (map (+1) xs, map (*2) xs)
